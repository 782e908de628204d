import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatRelativeTime } from '../lib/i18n';
import { Tooltip } from './Tooltip';
import { useNow } from './useNow';

/**
 * "5 minutes ago" in the chosen language, with the exact date as a tooltip. Kept when its card
 * draws again for another reason (a like, a count): only the time or the language changes it.
 */
export const RelativeTime = memo(function RelativeTime({ time }: { time: number }) {
  const { t, i18n } = useTranslation('common');
  const now = useNow();
  const date = new Date(time);
  return (
    // The exact date is written only when the tooltip shows: a page's first date format loads the
    // language's calendar data, tens of milliseconds of a phone's first drawing of the feed.
    <Tooltip label={() => date.toLocaleString(i18n.language)}>
      <time dateTime={date.toISOString()}>{formatRelativeTime(t, time, now)}</time>
    </Tooltip>
  );
});
