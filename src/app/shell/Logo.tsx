import { useTranslation } from 'react-i18next';

/** The Kruh mark: a circle of people, plus the word. */
export function Logo({ withText = true }: { withText?: boolean }) {
  const { t } = useTranslation('common');
  return (
    <span className="logo">
      <svg width="32" height="32" viewBox="0 0 32 32" aria-hidden="true" focusable="false">
        <circle cx="16" cy="16" r="15" fill="var(--color-primary)" />
        <circle cx="16" cy="16" r="8.5" fill="none" stroke="#fff" strokeWidth="3" />
        <circle cx="16" cy="7.5" r="3" fill="#fff" />
        <circle cx="23.4" cy="20.25" r="3" fill="#fff" />
        <circle cx="8.6" cy="20.25" r="3" fill="#fff" />
      </svg>
      {withText ? <span className="logo__text">{t('appName')}</span> : null}
    </span>
  );
}
