import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { DELETED } from '#core/limits';
import { NetworkError, isSessionRefused } from '../../lib/api/client';
import { usePost } from '../../lib/query/posts';
import { PostCard } from '../../components/post/PostCard';

/**
 * /p/{postId}: the post; the comment thread is rendered below it by the comments feature.
 * Only the deleted marker, or the author's delete on this device, says the post was deleted: a
 * failed load (gone, private, or a server failure) says it was not found, since the server does
 * not tell those apart for a stranger, and offline, or with the session refused, a post never
 * stored here says it is not saved on this device.
 */
export default function PostPage() {
  const { postId = '' } = useParams();
  const { t } = useTranslation('post');
  const { post, cached, error, deletedHere } = usePost(postId);
  // Deleted here, the page says so at once, as it does for the marker, whatever the server answers.
  if (postId === DELETED || deletedHere) return <p className="list-status" role="alert">{t('post_deleted', { ns: 'error' })}</p>;
  if (post) return <section className="post-page"><PostCard post={post} pictures="high" /></section>;
  if (error && cached) {
    const why = error instanceof NetworkError ? 'not_offline' : isSessionRefused(error) ? 'common:session.not_saved' : 'not_found';
    return (
      <p className="list-status" role="alert">
        {t(why)}
      </p>
    );
  }
  return <p className="list-status" role="status">{t('quoted_loading')}</p>;
}
