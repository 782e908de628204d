import { useTranslation } from 'react-i18next';
import { StatusPage } from '../../components/StatusPage';

/** Where the app starts again once the account is deleted. */
export const ACCOUNT_DELETED_PATH = '/account-deleted';

/** Says the account is gone, after the app let go of everything it held of it. */
export default function AccountDeletedPage() {
  const { t } = useTranslation('account');
  return <StatusPage title={t('deleted.title')} text={t('deleted.text')} />;
}
