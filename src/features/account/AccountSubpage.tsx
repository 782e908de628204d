import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { AppLink } from '../../components/AppLink';
import './account.css';

/** A page under /account: the way back to the account, its title (`{page}.title`) and its content. */
export function AccountSubpage({ page, children }: { page: 'credentials' | 'settings'; children: ReactNode }) {
  const { t } = useTranslation('account');
  return (
    <section className="account-page" aria-labelledby={`${page}-title`}>
      <AppLink to="/account" className="account-back">
        {t('back')}
      </AppLink>
      <h1 id={`${page}-title`}>{t(`${page}.title`)}</h1>
      {children}
    </section>
  );
}
