import type { ReactNode } from 'react';
import { CARD_ICON_PATHS } from '#core/ui/icon-paths';

export type IconName = 'feed' | 'search' | 'newPost' | 'notifications' | 'profile' | 'login' | 'signup' | 'close' | 'back' | 'like' | 'comment' | 'share' | 'more' | 'reply' | 'image' | 'pending';

const stroke = { fill: 'none', stroke: 'currentColor', strokeWidth: 1.8, strokeLinecap: 'round', strokeLinejoin: 'round' } as const;
const solid = { fill: 'currentColor', stroke: 'currentColor', strokeWidth: 1.8, strokeLinecap: 'round', strokeLinejoin: 'round' } as const;
const bold = { ...stroke, strokeWidth: 2.8 } as const;

/** An icon whose filled form is its outline drawn solid, or with bold lines. */
const drawn = (shape: ReactNode, filledStyle: typeof solid | typeof bold = solid) => ({
  outline: <g {...stroke}>{shape}</g>,
  filled: <g {...filledStyle}>{shape}</g>,
});

/** An icon whose filled form is drawn apart from its outline. */
const twoForms = (outline: ReactNode, filled: ReactNode) => ({ outline: <g {...stroke}>{outline}</g>, filled });

/** Three dots in a row (the menu button), their radius growing for the filled form. */
const dots = (r: string) => (
  <g fill="currentColor">
    {['5', '12', '19'].map((cx) => (
      <circle key={cx} cx={cx} cy="12" r={r} />
    ))}
  </g>
);

/** Each icon in its outline form and its filled form (the active navigation item). */
const ICONS: Record<IconName, { outline: ReactNode; filled: ReactNode }> = {
  feed: drawn(<path d="M3 10.5 12 3l9 7.5V20a1 1 0 0 1-1 1h-5v-6H9v6H4a1 1 0 0 1-1-1z" />),
  search: twoForms(
    <>
      <circle cx="11" cy="11" r="7" />
      <path d="m20.5 20.5-4.5-4.5" />
    </>,
    <g {...bold}>
      <circle cx="11" cy="11" r="6.5" />
      <path d="m20.5 20.5-4.5-4.5" />
    </g>,
  ),
  newPost: twoForms(
    <>
      <rect x="3" y="3" width="18" height="18" rx="5" />
      <path d="M12 8v8M8 12h8" />
    </>,
    <g>
      <rect {...solid} x="3" y="3" width="18" height="18" rx="5" />
      <path {...stroke} stroke="var(--color-surface, #fff)" d="M12 8v8M8 12h8" />
    </g>,
  ),
  notifications: twoForms(
    <>
      <path d="M6 9a6 6 0 1 1 12 0c0 6 2.5 8 2.5 8h-17S6 15 6 9z" />
      <path d="M10.3 20.5a2 2 0 0 0 3.4 0" />
    </>,
    <g>
      <path {...solid} d="M6 9a6 6 0 1 1 12 0c0 6 2.5 8 2.5 8h-17S6 15 6 9z" />
      <path {...stroke} d="M10.3 20.5a2 2 0 0 0 3.4 0" />
    </g>,
  ),
  profile: drawn(
    <>
      <circle cx="12" cy="8" r="4" />
      <path d="M4 21a8 8 0 0 1 16 0z" />
    </>,
  ),
  login: drawn(<path d="M14 3h4a2 2 0 0 1 2 2v14a2 2 0 0 1-2 2h-4M9 17l5-5-5-5M14 12H3" />, bold),
  signup: twoForms(
    <>
      <circle cx="9" cy="8" r="4" />
      <path d="M2 21a7 7 0 0 1 14 0zM19 8v6M16 11h6" />
    </>,
    <g>
      <g {...solid}>
        <circle cx="9" cy="8" r="4" />
        <path d="M2 21a7 7 0 0 1 14 0z" />
      </g>
      <path {...bold} d="M19 8v6M16 11h6" />
    </g>,
  ),
  close: drawn(<path d="M6 6l12 12M18 6 6 18" />, bold),
  back: drawn(<path d="M15 5l-7 7 7 7" />, bold),
  like: drawn(<path d={CARD_ICON_PATHS.like} />),
  comment: drawn(<path d={CARD_ICON_PATHS.comment} />),
  share: drawn(<path d={CARD_ICON_PATHS.share} />, bold),
  more: { outline: dots('1.8'), filled: dots('2.2') },
  reply: drawn(<path d="M9.5 7 4 12l5.5 5M4.5 12H14a6 6 0 0 1 6 6v1" />, bold),
  // A clock: waiting to be sent.
  pending: drawn(
    <>
      <circle cx="12" cy="13" r="8" />
      <path d="M12 9v4l2.5 2.5M10 2.5h4" />
    </>,
    bold,
  ),
  image: drawn(
    <>
      <rect x="3" y="4" width="18" height="16" rx="2.5" />
      <circle cx="9" cy="10" r="1.8" />
      <path d="m21 16-5-5-9 9" />
    </>,
  ),
};

interface IconProps {
  name: IconName;
  filled?: boolean;
  size?: number;
  className?: string;
}

/** A decorative inline SVG icon; the text next to it (or an aria-label) names the control. */
export function Icon({ name, filled = false, size = 24, className }: IconProps) {
  return (
    <svg
      className={className}
      width={size}
      height={size}
      viewBox="0 0 24 24"
      aria-hidden="true"
      focusable="false"
      data-icon={name}
      data-filled={filled ? 'true' : 'false'}
    >
      {filled ? ICONS[name].filled : ICONS[name].outline}
    </svg>
  );
}
