import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { DELETED } from '#core/limits';
import { usePost } from '../../lib/query/posts';
import { PostCard } from '../../components/post/PostCard';
import { LoadFailure } from '../../components/StatusPage';

/**
 * /p/{postId}: the post; the comment thread is rendered below it by the comments feature.
 * Only the deleted marker, or the author's delete on this device, says the post was deleted: a
 * failed load says so as a user's or a group's page does (not found for a post gone or private,
 * which the server does not tell apart for a stranger; not on this device offline or with the
 * session refused; what went wrong otherwise).
 */
export default function PostPage() {
  const { postId = '' } = useParams();
  const { t } = useTranslation('post');
  const { post, cached, error, deletedHere } = usePost(postId);
  // Deleted here, the page says so at once, as it does for the marker, whatever the server answers.
  if (postId === DELETED || deletedHere) return <p className="list-status" role="alert">{t('post_deleted', { ns: 'error' })}</p>;
  if (post) return <section className="post-page"><PostCard post={post} pictures="high" /></section>;
  if (error && cached) return <LoadFailure error={error} notFoundKey="didnt_find_post" />;
  return <p className="list-status" role="status">{t('quoted_loading')}</p>;
}
