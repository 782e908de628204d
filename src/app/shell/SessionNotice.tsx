import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';
import { AppLink } from '../../components/AppLink';
import { loginReturningTo } from '../../components/login-return';
import { useSession } from '../../lib/session';
import './SessionNotice.css';

/**
 * Said over the page once the server refused the session: what this device saved still reads, and
 * the login (which comes back to this page) lets the waiting work go. Not on the login page itself.
 */
export function SessionNotice() {
  const { t } = useTranslation('common');
  const { expired } = useSession();
  const location = useLocation();
  if (!expired || location.pathname === '/login') return null;
  return (
    <div className="session-notice" role="status">
      <p className="session-notice__text">{t('session.expired')}</p>
      <AppLink className="button button--primary session-notice__login" to={loginReturningTo(location)} current={false}>
        {t('session.login')}
      </AppLink>
    </div>
  );
}
