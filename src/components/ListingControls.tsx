import { useTranslation } from 'react-i18next';
import { SORTS, type Sort, TIMES, type TimeWindow } from '#core/listing';
import { useMediaQuery } from './useMediaQuery';
import './ListingControls.css';

interface Props {
  sort: Sort;
  time: TimeWindow;
  onChange: (sort: Sort, time: TimeWindow) => void;
}

/** Screens where "This month" beside the sort would crowd the row (and Czech would overflow it). */
export const COMPACT_QUERY = '(max-width: 480px)';

/**
 * Sort and time selector of listing pages; time matters only for popular. The time windows read
 * "Today", "This week"... and, on a phone, the plain "Day", "Week"...; all time stays as it is.
 */
export function ListingControls({ sort, time, onChange }: Props) {
  const { t } = useTranslation('common');
  const compact = useMediaQuery(COMPACT_QUERY);
  return (
    <div className="listing-controls">
      <label>
        <span className="visually-hidden">{t('listing.sort.label')}</span>
        <select value={sort} aria-label={t('listing.sort.label')} onChange={(e) => onChange(e.target.value as Sort, time)}>
          {SORTS.map((s) => (
            <option key={s} value={s}>
              {t(`listing.sort.${s}`)}
            </option>
          ))}
        </select>
      </label>
      {sort === 'popular' && (
        <label>
          <span className="visually-hidden">{t('listing.time.label')}</span>
          <select value={time} aria-label={t('listing.time.label')} onChange={(e) => onChange(sort, e.target.value as TimeWindow)}>
            {TIMES.map((w) => (
              <option key={w} value={w}>
                {compact && w !== 'all' ? t(`listing.time_plain.${w}`) : t(`listing.time.${w}`)}
              </option>
            ))}
          </select>
        </label>
      )}
    </div>
  );
}
