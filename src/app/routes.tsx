import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, type RouteObject, useRouteError } from 'react-router-dom';
import { NotFoundPage, StatusPage } from '../components/StatusPage';
import { RequireAuth } from './guards/auth-guard';
import { Shell } from './shell/Shell';

type PageModule = { default: ComponentType };

/** A lazily loaded page, optionally behind the auth guard. */
function page(load: () => Promise<PageModule>, options: { guarded?: boolean } = {}): Pick<RouteObject, 'lazy'> {
  return {
    lazy: async () => {
      const { default: Page } = await load();
      if (!options.guarded) return { Component: Page };
      return {
        Component: function GuardedPage() {
          return (
            <RequireAuth>
              <Page />
            </RequireAuth>
          );
        },
      };
    },
  };
}

const feed = () => import('../features/feed/FeedPage');
const compose = () => import('../features/compose/ComposePage');
const post = () => import('../features/posts/PostPage');
const login = () => import('../features/auth/LoginPage');
const signup = () => import('../features/auth/SignupPage');
const verify = () => import('../features/auth/VerifyPage');
const reset = () => import('../features/auth/ResetPage');
/** Screens of the spec this version does not offer yet: an honest page saying so. */
const unavailable = () => import('./UnavailableRoute');

function RouteError() {
  const { t } = useTranslation('common');
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  console.error(error);
  return (
    <StatusPage title={t('routeError.title')} text={t('routeError.text')}>
      <button type="button" className="button" onClick={() => window.location.reload()}>
        {t('routeError.reload')}
      </button>
    </StatusPage>
  );
}

/** Every route of 000 §2 and 001 §2, after the # (hash routing). */
export const routes: RouteObject[] = [
  {
    element: <Shell />,
    errorElement: <RouteError />,
    children: [
      {
        errorElement: <RouteError />,
        children: [
          { index: true, ...page(feed) },
          { path: 'feed', ...page(feed) },
          { path: 'feed/following', ...page(feed) },
          { path: 'feed/groups', ...page(feed) },
          { path: 'post', ...page(compose, { guarded: true }) },
          { path: 'p/:postId', ...page(post) },
          { path: 'login', ...page(login) },
          { path: 'signup', ...page(signup) },
          { path: 'verify', ...page(verify) },
          { path: 'reset', ...page(reset) },
          // Both readings of 000 §2: the list lives at /notifications and under /account.
          { path: 'notifications', ...page(unavailable, { guarded: true }) },
          { path: 'account/notifications', ...page(unavailable, { guarded: true }) },
          { path: 'search', ...page(unavailable) },
          { path: 'h/:hashtag', ...page(unavailable) },
          { path: 'u/:username', ...page(unavailable) },
          { path: 'u/:username/:show', ...page(unavailable) },
          { path: 'create-group', ...page(unavailable, { guarded: true }) },
          { path: 'g/:groupname', ...page(unavailable) },
          { path: 'g/:groupname/settings', ...page(unavailable, { guarded: true }) },
          { path: 'g/:groupname/:show', ...page(unavailable) },
          { path: 'account', ...page(unavailable, { guarded: true }) },
          { path: 'account/credentials', ...page(unavailable, { guarded: true }) },
          { path: 'account/notification-settings', ...page(unavailable, { guarded: true }) },
          { path: '*', Component: NotFoundPage },
        ],
      },
    ],
  },
];
