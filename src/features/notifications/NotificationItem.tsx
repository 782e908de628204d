import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
// Which label an item gets and which post it opens: shared with the server's push messages.
import { labelOf, postLink } from '#core/api/notifications';
import { DELETED } from '#core/limits';
import { AppLink } from '../../components/AppLink';
import { Avatar } from '../../components/Avatar';
import { Icon } from '../../components/Icon';
import { Tooltip } from '../../components/Tooltip';
import { UserName } from '../../components/remote/Remote';
import { formatRelativeTime } from '../../lib/i18n';
import type { JoinDecision, Notification } from './notifications.api';
import './notifications.css';

const present = (name: string | null | undefined): name is string => !!name && name !== DELETED;

/**
 * Puts the user and group links where the label's <user/> and <group/> markers stand. Names are
 * never pasted into the translated text, so whatever characters a name holds it stays a name.
 */
function fillLabel(text: string, parts: { user: ReactNode; group: ReactNode }): ReactNode[] {
  return text.split(/(<user\/>|<group\/>)/).map((piece, i) => {
    if (piece === '<user/>') return <span key={i}>{parts.user}</span>;
    if (piece === '<group/>') return <span key={i}>{parts.group}</span>;
    return piece;
  });
}

interface Props {
  notification: Notification;
  now: number;
  busy: boolean;
  onDelete: (n: Notification) => void;
  onDecide: (n: Notification, decision: JoinDecision) => void;
  /** Shown without its actions (the session ended: the server would refuse them). */
  readOnly?: boolean;
}

/** One notification of the list: actor avatar, the label with its links, the excerpt, the time. */
export function NotificationItem({ notification: n, now, busy, onDelete, onDecide, readOnly = false }: Props) {
  const { t } = useTranslation('notifications');
  const label = labelOf(n);
  const actor = present(n.username) ? n.username : null;
  const groupname = n.groupname ?? n.groups[0] ?? null;
  const group = present(groupname) ? groupname : null;
  const user = actor ? (
    <AppLink to={`/u/${encodeURIComponent(actor)}`} className="notification__name text-link">
      <UserName username={actor} />
    </AppLink>
  ) : (
    <span className="notification__name notification__name--deleted">{t('deletedUser')}</span>
  );
  const groupNode = group ? (
    <AppLink to={`/g/${encodeURIComponent(group)}`} className="notification__name text-link">
      {group}
    </AppLink>
  ) : (
    <span className="notification__name notification__name--deleted">{t('deletedGroup')}</span>
  );
  const target = postLink(n);
  const canDecide = !readOnly && label === 'joinRequest' && !!n.pfp && !!group;

  return (
    <article className={['notification', n.seen ? '' : 'notification--unread'].filter(Boolean).join(' ')} data-type={n.type}>
      {actor ? (
        <AppLink to={`/u/${encodeURIComponent(actor)}`} className="notification__avatar" tabIndex={-1} aria-hidden="true">
          <Avatar id={n.pfp} url={n.pfpUrl} size={40} />
        </AppLink>
      ) : (
        <Avatar id={null} size={40} className="notification__avatar" />
      )}
      <div className="notification__body">
        <p className="notification__text">{fillLabel(t(`types.${label}`), { user, group: groupNode })}</p>
        {target && n.reply ? (
          <AppLink to={target} className="notification__excerpt">
            {n.reply}
          </AppLink>
        ) : target ? (
          <AppLink to={target} className="notification__excerpt">
            {t('openPost')}
          </AppLink>
        ) : null}
        <time className="notification__time" dateTime={new Date(n.createdAt).toISOString()}>
          {formatRelativeTime(t, n.createdAt, now)}
        </time>
        {canDecide ? (
          <div className="notification__actions">
            <button type="button" className="button button--primary" disabled={busy} onClick={() => onDecide(n, 'accept')}>
              {t('accept')}
            </button>
            <button type="button" className="button" disabled={busy} onClick={() => onDecide(n, 'deny')}>
              {t('deny')}
            </button>
          </div>
        ) : null}
      </div>
      {readOnly ? null : (
        <Tooltip label={t('delete')}>
          <button
            type="button"
            className="icon-button notification__delete"
            aria-label={t('delete')}
            disabled={busy}
            onClick={() => onDelete(n)}
          >
            <Icon name="close" size={18} />
          </button>
        </Tooltip>
      )}
    </article>
  );
}
