import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';
import { AppLink } from '../../components/AppLink';
import { Icon, type IconName } from '../../components/Icon';
import { useSession } from '../../lib/session';
import { useAppBadge } from './app-badge';
import { Logo } from './Logo';
import { useUnreadCount } from './useUnreadCount';
import './NavBar.css';

interface Item {
  key: string;
  to: string;
  /** The one name of the destination, the same in the phone's bottom bar and the side rail. */
  label: string;
  icon?: IconName;
  active: boolean;
  badge?: number;
}

// The own avatar reads the local database (the newest picture uploaded here): it comes after the
// first paint, which a visitor's navigation does without.
const Avatar = lazy(() => import('../../components/Avatar').then((m) => ({ default: m.Avatar })));

const isFeed = (path: string) => path === '/' || path === '/feed' || path.startsWith('/feed/');
const under = (path: string, base: string) => path === base || path.startsWith(`${base}/`);

/** The navigation: a bottom bar on small screens, a side rail on larger ones. */
export function NavBar() {
  const { t } = useTranslation('common');
  const { pathname } = useLocation();
  const { isLoggedIn, token, username, id, expired } = useSession();
  // A refused session's count could only be refused again: the badge waits for the next login.
  const unread = useUnreadCount(expired ? null : token);
  useAppBadge(unread);

  const isNotifications = pathname === '/notifications' || pathname === '/account/notifications';
  const items: Item[] = [
    { key: 'feed', to: '/feed', label: t('nav.feed'), icon: 'feed', active: isFeed(pathname) },
    { key: 'search', to: '/search', label: t('nav.search'), icon: 'search', active: pathname === '/search' },
  ];
  if (isLoggedIn) {
    const profile = `/u/${encodeURIComponent(username ?? '')}`;
    items.push(
      { key: 'post', to: '/post', label: t('nav.newPost'), icon: 'newPost', active: pathname === '/post' },
      {
        key: 'notifications',
        to: '/notifications',
        label: t('nav.notifications'),
        icon: 'notifications',
        active: isNotifications,
        badge: unread,
      },
      { key: 'profile', to: profile, label: t('nav.profile'), icon: 'profile', active: under(pathname, profile) },
      {
        key: 'account',
        to: '/account',
        label: username ?? t('nav.account'),
        active: under(pathname, '/account') && !isNotifications,
      },
    );
  } else {
    items.push(
      { key: 'login', to: '/login', label: t('nav.login'), icon: 'login', active: pathname === '/login' },
      { key: 'signup', to: '/signup', label: t('nav.signup'), icon: 'signup', active: pathname === '/signup' },
    );
  }

  return (
    <nav className="navbar" aria-label={t('nav.label')}>
      <div className="navbar__logo">
        <AppLink to="/feed" className="navbar__logo-link" aria-label={t('nav.home')} current={false}>
          <Logo />
        </AppLink>
      </div>
      <ul className="navbar__list">
        {items.map((item) => (
          <li key={item.key} className="navbar__item" data-nav={item.key}>
            <AppLink
              to={item.to}
              current={item.active}
              className={`navbar__link${item.active ? ' navbar__link--active' : ''}`}
              title={item.key === 'account' ? t('nav.account') : undefined}
            >
              <span className="navbar__icon">
                {item.icon ? (
                  <Icon name={item.icon} filled={item.active} />
                ) : (
                  <Suspense fallback={<span className="avatar" style={{ width: 26, height: 26 }} />}>
                    <Avatar id={id} size={26} className={item.active ? 'navbar__avatar--active' : ''} />
                  </Suspense>
                )}
                {item.badge ? (
                  <span className="navbar__badge" aria-label={t('nav.unread', { count: item.badge })}>
                    {item.badge > 99 ? '99+' : item.badge}
                  </span>
                ) : null}
              </span>
              <span className="navbar__label">{item.label}</span>
            </AppLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
