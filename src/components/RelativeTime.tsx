import { useTranslation } from 'react-i18next';
import { formatRelativeTime } from '../lib/i18n';
import { Tooltip } from './Tooltip';
import { useNow } from './useNow';

/** "5 minutes ago" in the chosen language, with the exact date as a tooltip. */
export function RelativeTime({ time }: { time: number }) {
  const { t, i18n } = useTranslation('common');
  const now = useNow();
  const date = new Date(time);
  return (
    <Tooltip label={date.toLocaleString(i18n.language)}>
      <time dateTime={date.toISOString()}>{formatRelativeTime(t, time, now)}</time>
    </Tooltip>
  );
}
