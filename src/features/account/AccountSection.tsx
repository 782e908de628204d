import type { ReactNode } from 'react';

/**
 * A titled section of the account pages: its heading names it, and a line under the heading says
 * what it is for. `kind` is the section's own class (`account-export`), `noteClass` the line's.
 */
export function AccountSection(props: { id: string; kind: string; title: string; note: string; noteClass: string; children: ReactNode }) {
  const { id, kind, title, note, noteClass, children } = props;
  return (
    <section className={`account-section ${kind}`} aria-labelledby={id}>
      <h2 id={id} className="account-section__title">
        {title}
      </h2>
      <p className={noteClass}>{note}</p>
      {children}
    </section>
  );
}
