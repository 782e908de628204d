import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { queueLike } from '../lib/outbox/kinds/like';
import { useLikeState } from '../lib/outbox/useOutbox';
import { useSession } from '../lib/session';
import { Icon } from './Icon';
import { Tooltip } from './Tooltip';
import './LikeButton.css';
import { useLoginLink } from './login-return';

/** Where each target's labels are: `like`, `unlike` and `likes` (counted) under the prefix. */
const LABELS = {
  post: { ns: 'post', prefix: '' },
  comment: { ns: 'comments', prefix: 'item.' },
} as const;

interface LikeButtonProps {
  target: 'post' | 'comment';
  /** The post or comment: `liked` and `likes` are the state the server last sent; a queued like is shown over it at once. */
  item: { _id: string; liked: boolean; likes: number };
}

/**
 * The like toggle of a post or comment (class `{target}-like`): through the outbox; visitors go to
 * login instead. A like not sent yet is marked as waiting beside the button.
 */
export function LikeButton({ target, item }: LikeButtonProps) {
  const { _id: id, liked: serverLiked, likes: serverLikes } = item;
  const { ns, prefix } = LABELS[target];
  const { t } = useTranslation(ns);
  const { isLoggedIn } = useSession();
  const navigate = useNavigate();
  const loginLink = useLoginLink();
  const like = useLikeState(target, id, { liked: serverLiked, likes: serverLikes });
  const toggle = () => {
    if (!isLoggedIn) {
      void navigate(loginLink);
      return;
    }
    void queueLike(target, id, !like.liked, serverLiked);
  };
  return (
    <>
      <button
        type="button"
        className={`action ${target}-like${like.liked ? ' liked' : ''}${like.pending ? ' like-pending' : ''}`}
        aria-pressed={like.liked}
        aria-label={t(`${prefix}${like.liked ? 'unlike' : 'like'}`)}
        onClick={toggle}
      >
        <Icon name="like" filled={like.liked} size={20} />
      </button>
      {/* The count beside the button, not in it: a button named "Like" whose visible text is a
          number would be read one way and spoken to by voice control another. */}
      <span className={`${target}-likes like-count`}>
        <span aria-hidden="true">{like.likes}</span>
        <span className="visually-hidden">{t(`${prefix}likes`, { count: like.likes })}</span>
      </span>
      {/* Beside the button, not in it: a button's content is not read out as a status. */}
      {like.pending && (
        <Tooltip label={t(`${prefix}pending`)}>
          <span className="like-pending-mark" role="status">
            <Icon name="pending" size={14} />
            <span className="visually-hidden">{t(`${prefix}pending`)}</span>
          </span>
        </Tooltip>
      )}
    </>
  );
}
