import { useTranslation } from 'react-i18next';
import { appPaths } from '#core/app-paths';
import { remoteNameOf, webUrlOf } from '#core/remote-names';
import { AppLink } from '../AppLink';
import './remote.css';

/** The small "on other.example" after a remote account's name. */
export function RemoteHost({ host }: { host: string }) {
  const { t } = useTranslation('common');
  return <span className="remote-host">{t('remote.on_host', { host })}</span>;
}

/**
 * A user's name as shown in a byline or a list: a remote account (`name@host`) as its name followed
 * by its server, a local one as it is.
 */
export function UserName({ username }: { username: string }) {
  const remote = remoteNameOf(username);
  if (!remote) return <>{username}</>;
  return (
    <>
      {remote.name} <RemoteHost host={remote.host} />
    </>
  );
}

/** "Open original": the remote post's, comment's or profile's page on its own server, in a new tab. */
export function OpenOriginal({ remote }: { remote: { host: string; url: string | null } | null | undefined }) {
  const { t } = useTranslation('common');
  const url = webUrlOf(remote?.url);
  if (!remote || !url) return null;
  return (
    <a className="text-link remote-original" href={url} target="_blank" rel="noopener nofollow ugc" aria-label={t('remote.open_original_label', { host: remote.host })}>
      {t('remote.open_original')}
    </a>
  );
}

/**
 * "Shared by garden on lemmy.example" above a remote post a community of another server passed on:
 * why it is in the Following feed of someone who does not follow its author.
 */
export function SharedBy({ sharer }: { sharer: { username: string } | undefined }) {
  const { t } = useTranslation('common');
  if (!sharer) return null;
  return (
    <div className="post-shared">
      {t('remote.shared_by')}{' '}
      <AppLink className="text-link" to={appPaths.user(sharer.username)}>
        <UserName username={sharer.username} />
      </AppLink>
    </div>
  );
}
