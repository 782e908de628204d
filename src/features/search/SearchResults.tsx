import { useTranslation } from 'react-i18next';
import { AppLink } from '../../components/AppLink';
import { Avatar } from '../../components/Avatar';
import type { Comment } from '../../lib/api/types';
import { Byline } from '../../components/post/Byline';
import { PostText } from '../../components/post/PostText';
import './search.css';

/** A comment found by its text, leading to its place in the thread (pinned there with c=). */
export function ReplyRow({ comment }: { comment: Comment }) {
  const { t } = useTranslation('search');
  return (
    <article className="search-reply">
      <header className="search-reply-header">
        <Avatar kind="pfp" id={comment.author.pfp} url={comment.author.pfpUrl} size={32} />
        <Byline username={comment.author.username} time={comment.createdAt} prefix="search-reply" />
      </header>
      {comment.parent.author.username && (
        <p className="search-reply-to">{t('reply.to', { username: comment.parent.author.username })}</p>
      )}
      <p className="search-reply-text">
        <PostText text={comment.text} mentions={comment.mentions} />
      </p>
      <AppLink className="search-reply-open" to={`/p/${encodeURIComponent(comment.postId)}?c=${encodeURIComponent(comment._id)}`}>
        {t('reply.open')}
      </AppLink>
    </article>
  );
}
