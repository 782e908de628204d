import { useTranslation } from 'react-i18next';
import { SORTS, type Sort, TIMES, type TimeWindow } from '#core/listing';
import './ListingControls.css';

interface Props {
  sort: Sort;
  time: TimeWindow;
  onChange: (sort: Sort, time: TimeWindow) => void;
}

/** Sort and time selector of listing pages; time matters only for popular. */
export function ListingControls({ sort, time, onChange }: Props) {
  const { t } = useTranslation('common');
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
                {t(`listing.time.${w}`)}
              </option>
            ))}
          </select>
        </label>
      )}
    </div>
  );
}
