import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { usePost } from '../../lib/query/posts';
import { PostCard } from '../../components/post/PostCard';

/** /p/{postId}: the post; the comment thread is rendered below it by the comments feature. */
export default function PostPage() {
  const { postId = '' } = useParams();
  const { t } = useTranslation('post');
  const { post, cached, deleted, error } = usePost(postId);
  if (deleted) return <p className="list-status" role="alert">{t('post_deleted', { ns: 'error' })}</p>;
  if (post) return <section className="post-page"><PostCard post={post} /></section>;
  if (error && cached) return <p className="list-status" role="alert">{t('not_found')}</p>;
  return <p className="list-status" role="status">{t('quoted_loading')}</p>;
}
