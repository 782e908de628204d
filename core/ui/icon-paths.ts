/**
 * The outlines of the post card's action icons. The app draws them (src/components/Icon.tsx), and
 * the server draws the same cards into the first HTML of the feed, before the app has loaded: both
 * read them from here so the two drawings cannot drift apart.
 */
export const CARD_ICON_PATHS = {
  like: 'M12 20.5s-7.5-4.6-9.2-9.3C1.6 7.8 3.7 4.5 7.1 4.5c2 0 3.6 1.1 4.9 3 1.3-1.9 2.9-3 4.9-3 3.4 0 5.5 3.3 4.3 6.7-1.7 4.7-9.2 9.3-9.2 9.3z',
  comment: 'M4 5.5A1.5 1.5 0 0 1 5.5 4h13A1.5 1.5 0 0 1 20 5.5v10a1.5 1.5 0 0 1-1.5 1.5H10l-4.5 3.5V17h0A1.5 1.5 0 0 1 4 15.5z',
  share: 'M12 15V3.5M7.5 8 12 3.5 16.5 8M5 12.5v6A1.5 1.5 0 0 0 6.5 20h11a1.5 1.5 0 0 0 1.5-1.5v-6',
} as const;

export type CardIconName = keyof typeof CARD_ICON_PATHS;
