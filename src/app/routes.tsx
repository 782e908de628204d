import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, type RouteObject, useRouteError } from 'react-router-dom';
import { NotFoundPage, StatusPage } from '../components/StatusPage';
import { Shell } from './shell/Shell';

type PageModule = { default: ComponentType };

/**
 * A lazily loaded page, optionally behind the auth guard (fetched with the page: it asks the API,
 * which the first paint of a public page does not need).
 */
function page(load: () => Promise<PageModule>, options: { guarded?: boolean } = {}): Pick<RouteObject, 'lazy'> {
  return {
    lazy: async () => {
      if (!options.guarded) return { Component: (await load()).default };
      const [{ default: Page }, { RequireAuth }] = await Promise.all([load(), import('./guards/auth-guard')]);
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

/** The pages under one path, each behind the auth guard: `{ sub-path: page }`, '' for the path itself. */
function guardedUnder(base: string, pages: Record<string, () => Promise<PageModule>>): RouteObject[] {
  return Object.entries(pages).map(([sub, load]) => ({ path: sub ? `${base}/${sub}` : base, ...page(load, { guarded: true }) }));
}

const feed = () => import('../features/feed/FeedPage');
const compose = () => import('../features/compose/ComposePage');
const post = () => import('./post-page/PostPage');
const search = () => import('../features/search/SearchPage');
const hashtag = () => import('../features/hashtag/HashtagPage');
const login = () => import('../features/auth/LoginPage');
const signup = () => import('../features/auth/SignupPage');
const verify = () => import('../features/auth/VerifyPage');
const reset = () => import('../features/auth/ResetPage');
const profile = () => import('../features/profile/ProfilePage');
const group = () => import('../features/groups/GroupPage');
const createGroup = () => import('../features/groups/CreateGroupPage');
const groupSettings = () => import('../features/groups/GroupSettingsPage');
const groupReports = () => import('../features/groups/GroupReportsPage');
const moderation = () => import('../features/moderation/ModerationPage');
const instanceSettings = () => import('../features/moderation/InstanceSettingsPage');
const people = () => import('../features/moderation/PeoplePage');
const about = () => import('../features/about/AboutPage');
const notifications = () => import('../features/notifications/NotificationsPage');
const account = () => import('../features/account/AccountPage');
const credentials = () => import('../features/account/CredentialsPage');
const notificationSettings = () => import('../features/account/NotificationSettingsPage');
const safetyLists = () => import('../features/account/SafetyListsPage');
const invites = () => import('../features/account/InvitesPage');
const accountDeleted = () => import('../features/account/AccountDeletedPage');
const authorize = () => import('../features/oauth/AuthorizePage');
const authorizedApps = () => import('../features/oauth/AuthorizedAppsPage');

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

/** Every route, after the # (hash routing). */
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
          // Both readings: the list lives at /notifications and under /account.
          { path: 'notifications', ...page(notifications, { guarded: true }) },
          { path: 'account/notifications', ...page(notifications, { guarded: true }) },
          { path: 'search', ...page(search) },
          { path: 'h/:hashtag', ...page(hashtag) },
          { path: 'u/:username', ...page(profile) },
          { path: 'u/:username/:show', ...page(profile) },
          { path: 'create-group', ...page(createGroup, { guarded: true }) },
          { path: 'g/:groupname', ...page(group) },
          { path: 'g/:groupname/settings', ...page(groupSettings, { guarded: true }) },
          { path: 'g/:groupname/reports', ...page(groupReports, { guarded: true }) },
          { path: 'g/:groupname/:show', ...page(group) },
          ...guardedUnder('account', {
            '': account,
            credentials,
            'notification-settings': notificationSettings,
            safety: safetyLists,
            invites,
            apps: authorizedApps,
          }),
          { path: 'account-deleted', ...page(accountDeleted) },
          ...guardedUnder('moderation', { '': moderation, instance: instanceSettings, people }),
          { path: 'about', ...page(about) },
          // A fediverse app's sign-in: the app's request is the query, kept across the login.
          { path: 'oauth/authorize', ...page(authorize, { guarded: true }) },
          { path: '*', Component: NotFoundPage },
        ],
      },
    ],
  },
];
