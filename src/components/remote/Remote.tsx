import { useTranslation } from 'react-i18next';
import { remoteNameOf, webUrlOf } from '#core/remote-names';
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
