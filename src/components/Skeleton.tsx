/** What the placeholders stand for: a post card, a comment, a row of a list, a profile or group header. */
export type SkeletonKind = 'post' | 'comment' | 'row' | 'subject';

const LINES: Record<SkeletonKind, string[]> = {
  post: ['90%', '75%', '40%'],
  comment: ['80%', '55%'],
  row: ['45%'],
  subject: ['60%', '85%', '35%'],
};

function Placeholder({ kind }: { kind: SkeletonKind }) {
  const avatar = kind === 'subject' ? 72 : kind === 'row' || kind === 'comment' ? 32 : 40;
  return (
    <div className={`skeleton-item skeleton-item--${kind}`}>
      <span className="skeleton skeleton--circle" style={{ width: avatar, height: avatar }} />
      <div className="skeleton-item__lines">
        {kind !== 'row' && <span className="skeleton skeleton--line" style={{ width: '30%' }} />}
        {LINES[kind].map((width, i) => (
          <span key={i} className="skeleton skeleton--line" style={{ width }} />
        ))}
      </div>
    </div>
  );
}

interface SkeletonProps {
  kind: SkeletonKind;
  /** How many placeholders. */
  count?: number;
  /** Said to screen readers while the placeholders are shown ("Loading posts…"). */
  label: string;
}

/**
 * Placeholders in the shape of what is loading, in place of a blank wait: the page keeps its
 * layout when the items arrive. Busy while shown; the label is spoken, the shapes are not.
 */
export function Skeleton({ kind, count = 3, label }: SkeletonProps) {
  return (
    <div className="skeleton-list" aria-busy="true" data-skeleton={kind}>
      <p className="visually-hidden" role="status">
        {label}
      </p>
      <div aria-hidden="true">
        {Array.from({ length: count }, (_, i) => (
          <Placeholder key={i} kind={kind} />
        ))}
      </div>
    </div>
  );
}
