import { useNavigate } from 'react-router-dom';
import { queueLike } from '../lib/outbox/outbox';
import { useLikeState } from '../lib/outbox/useOutbox';
import { useSession } from '../lib/session';

interface LikeButtonProps {
  target: 'post' | 'comment';
  id: string;
  /** The state the server last sent; a queued like is shown over it at once. */
  liked: boolean;
  likes: number;
  className: string;
  labels: { like: string; unlike: string; count: (likes: number) => string };
}

/** The like toggle of a post or comment: through the outbox; visitors go to login instead. */
export function LikeButton({ target, id, liked: serverLiked, likes: serverLikes, className, labels }: LikeButtonProps) {
  const { isLoggedIn } = useSession();
  const navigate = useNavigate();
  const like = useLikeState(target, id, { liked: serverLiked, likes: serverLikes });
  const toggle = () => {
    if (!isLoggedIn) {
      void navigate('/login');
      return;
    }
    void queueLike(target, id, !like.liked, serverLiked);
  };
  return (
    <button
      type="button"
      className={`${className}${like.liked ? ' liked' : ''}`}
      aria-pressed={like.liked}
      aria-label={like.liked ? labels.unlike : labels.like}
      onClick={toggle}
    >
      <span aria-hidden="true">{like.liked ? '♥' : '♡'}</span> <span>{labels.count(like.likes)}</span>
    </button>
  );
}
