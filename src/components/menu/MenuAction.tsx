import type { ReactNode } from 'react';

/** One action of a menu list: a button that the menu's arrow keys move between (see useMenu). */
export function MenuAction({ onClick, children }: { onClick: () => void; children: ReactNode }) {
  return (
    <li role="none">
      <button type="button" role="menuitem" onClick={onClick}>
        {children}
      </button>
    </li>
  );
}
