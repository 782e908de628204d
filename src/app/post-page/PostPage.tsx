import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router-dom';
import { DELETED } from '#core/limits';
import { POST_PAGE_DEFAULTS } from '#core/listing';
import { useListingParams } from '../../lib/listing-params';
import { usePost } from '../../lib/query/posts';
import { CommentsSection } from '../../features/comments/CommentsSection';
import PostView from './PostView';
import { PageHeader } from '../../components/PageHeader';
import { useTitledPostAuthor } from '../shell/screen-title';

/**
 * /p/{postId}: the post (its card, the deleted and not-found states) and below it the
 * comments. Query parameters: sort (default popular), time (default all), focus=true puts the
 * focus in the comment box, c=<commentId> pins that comment with its tree at the top.
 */
const KEPT = ['c'];

export default function PostPage() {
  const { t } = useTranslation('postPage');
  const { postId = '' } = useParams();
  const [searchParams] = useSearchParams();
  const { post, cached, error, deletedHere } = usePost(postId === DELETED ? null : postId);
  useTitledPostAuthor(post?.author.username);
  // A failed load's page has its own heading (PostView), as a user's or a group's has.
  const failed = !post && !deletedHere && !!error && cached;
  // The pinned comment stays across a sort or time change; focus was a one-time request.
  const { sort, time, setListing } = useListingParams(POST_PAGE_DEFAULTS, KEPT);
  const pinned = searchParams.get('c');
  const focus = searchParams.get('focus') === 'true';

  return (
    <div className="post-page-view">
      <PageHeader title={t('title')} heading={!failed} />
      <PostView />
      {post && postId !== DELETED && !deletedHere && (
        <CommentsSection post={post} sort={sort} time={time} onListing={setListing} focus={focus} pinnedCommentId={pinned} />
      )}
    </div>
  );
}
