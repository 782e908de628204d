import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { Sort, TimeWindow } from '#core/listing';
import type { CachedPost } from '../../lib/db/db';
import { ListingControls } from '../../components/ListingControls';
import { CommentBox } from './CommentBox';
import { CommentItem, CommentList, ThreadProvider, fromNode } from './CommentThread';
import { useCommentCount } from '../../lib/comment-count';
import { useCommentTree, usePendingComments } from './useComments';
import './comments.css';

interface Props {
  post: CachedPost;
  sort: Sort;
  time: TimeWindow;
  onListing: (sort: Sort, time: TimeWindow) => void;
  /** Put the focus in the comment box (focus=true). */
  focus?: boolean;
  /** A comment to pin and highlight at the top with its tree (c=). */
  pinnedCommentId?: string | null;
}

/** The comment part of the post page: count, sort and time, the box, the pinned tree, the thread. */
export function CommentsSection({ post, sort, time, onListing, focus, pinnedCommentId }: Props) {
  const { t } = useTranslation('comments');
  const postId = post._id;
  const pending = usePendingComments(postId);
  const { tree, settled } = useCommentTree(pinnedCommentId ?? null);
  // The count rises at once for a comment written here, before the post is read again.
  const count = useCommentCount(post);
  const context = useMemo(() => ({ postId, sort, time, pending }), [postId, sort, time, pending]);
  const pinnedTree = tree && tree.postId === postId ? tree : null;

  return (
    <ThreadProvider value={context}>
      <section className="comments" aria-labelledby="comments-title">
        <header className="comments-header">
          <h2 id="comments-title" className="comments-count">
            {t('section.count', { count })}
          </h2>
          <ListingControls sort={sort} time={time} onChange={onListing} />
        </header>
        <CommentBox parentId={postId} postId={postId} autoFocus={focus} />
        {pinnedCommentId && settled && !pinnedTree && <p className="list-status">{t('section.pinned_missing')}</p>}
        {pinnedTree && (
          <div className="comment-pinned" aria-label={t('section.pinned')}>
            <ul>
              <CommentItem
                comment={fromNode(pinnedTree)[0]}
                preset={fromNode(pinnedTree)[1]}
                highlighted={pinnedTree.pinned}
              />
            </ul>
          </div>
        )}
        <CommentList parentId={postId} pinnedId={pinnedTree?._id ?? null} enabled={settled} />
      </section>
    </ThreadProvider>
  );
}
