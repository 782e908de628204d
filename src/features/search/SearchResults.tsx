import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { Avatar } from '../../components/Avatar';
import type { Comment } from '../../lib/api/types';
import { PostText } from '../../components/post/PostText';
import { RelativeTime } from '../../components/RelativeTime';
import type { GroupResult, UserResult } from './search.api';

export function UserRow({ user }: { user: UserResult }) {
  return (
    <Link className="search-row" to={`/u/${encodeURIComponent(user.username)}`}>
      <Avatar kind="pfp" id={user.pfp} url={user.pfpUrl} size={40} />
      <span className="search-row-name">{user.username}</span>
    </Link>
  );
}

export function GroupRow({ group }: { group: GroupResult }) {
  return (
    <Link className="search-row" to={`/g/${encodeURIComponent(group.name)}`}>
      <Avatar kind="gp" id={group.gp} url={group.gpUrl} size={40} />
      <span className="search-row-name">&amp;{group.name}</span>
    </Link>
  );
}

/** A comment found by its text, leading to its place in the thread (pinned there with c=). */
export function ReplyRow({ comment }: { comment: Comment }) {
  const { t } = useTranslation('search');
  return (
    <article className="search-reply">
      <header className="search-reply-header">
        <Avatar kind="pfp" id={comment.author.pfp} url={comment.author.pfpUrl} size={32} />
        <Link className="search-reply-author" to={`/u/${encodeURIComponent(comment.author.username)}`}>
          {comment.author.username}
        </Link>
        <span className="search-reply-time">
          <RelativeTime time={comment.createdAt} />
        </span>
      </header>
      {comment.parent.author.username && (
        <p className="search-reply-to">{t('reply.to', { username: comment.parent.author.username })}</p>
      )}
      <p className="search-reply-text">
        <PostText text={comment.text} />
      </p>
      <Link className="search-reply-open" to={`/p/${encodeURIComponent(comment.postId)}?c=${encodeURIComponent(comment._id)}`}>
        {t('reply.open')}
      </Link>
    </article>
  );
}
