import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader';
import './account.css';

/** A page under /account: the way back to the account, its title (`{page}.title`) and its content. */
export function AccountSubpage({ page, children }: { page: 'credentials' | 'settings'; children: ReactNode }) {
  const { t } = useTranslation('account');
  return (
    <section className="account-page" aria-labelledby={`${page}-title`}>
      <PageHeader title={t(`${page}.title`)} titleId={`${page}-title`} heading fallback="/account" />
      {children}
    </section>
  );
}
