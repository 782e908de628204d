import { useTranslation } from 'react-i18next';
import { relativeTime } from '#core/time';
import { useNow } from './useNow';

/** "5 minutes ago" in the chosen language, with the exact date as a tooltip. */
export function RelativeTime({ time }: { time: number }) {
  const { t, i18n } = useTranslation('post');
  const now = useNow();
  const { unit, value } = relativeTime(time, now);
  const date = new Date(time);
  return (
    <time dateTime={date.toISOString()} title={date.toLocaleString(i18n.language)}>
      {t(`time.${unit}`, { count: value })}
    </time>
  );
}
