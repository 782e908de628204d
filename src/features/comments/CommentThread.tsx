import { useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { DELETED } from '#core/limits';
import type { Sort, TimeWindow } from '#core/listing';
import { Avatar } from '../../components/Avatar';
import { ConfirmDialog, deleteAction, deleteQuestion } from '../../components/ConfirmDialog';
import { ReportDialog } from '../../components/ReportDialog';
import { useLoginLink } from '../../components/login-return';
import { useSession } from '../../lib/session';
import { LikeButton } from '../../components/LikeButton';
import { NotStoredLine } from '../../components/StatusPage';
import { Byline } from '../../components/post/Byline';
import { OpenOriginal } from '../../components/remote/Remote';
import { errorKeyOf } from '../../lib/api/client';
import type { Comment } from '../../lib/api/types';
import type { OutboxStatus } from '../../lib/db/db';
import { useDb } from '../../lib/db/useDb';
import { translateMessage } from '../../lib/i18n';
import { queryKeys } from '../../lib/query/keys';
import { toast } from '../../lib/toast';
import { PostText } from '../../components/post/PostText';
import { Tags } from '../../components/post/Tags';
import { CommentBox } from './CommentBox';
import { CommentImage } from './CommentImage';
import { type CommentNode, deleteComment } from './comments.api';
import { type PendingCommentRow, pendingCommentView } from '../../lib/outbox/kinds/comment';
import { useNewerComments } from '../../lib/comment-count';
import { useLiveComment, useThread } from './useComments';
import './comments.css';
import { Skeleton } from '../../components/Skeleton';
import { Icon } from '../../components/Icon';

/** What every level of one post's thread shares. */
export interface ThreadContextValue {
  postId: string;
  sort: Sort;
  time: TimeWindow;
  /** Comments of the post waiting in the outbox, newest first. */
  pending: PendingCommentRow[];
}

const ThreadContext = createContext<ThreadContextValue | null>(null);
export const ThreadProvider = ThreadContext.Provider;

function useThreadContext(): ThreadContextValue {
  const value = useContext(ThreadContext);
  if (!value) throw new Error('comment outside a thread');
  return value;
}

interface PendingInfo {
  status: OutboxStatus;
  image?: Blob | undefined;
}

/** Replies already known from the pinned tree (GET /comment/{id}/tree). */
interface Preset {
  children: CommentNode[];
  hasMore: boolean;
}

function useDeleteComment(commentId: string) {
  const { t } = useTranslation();
  const db = useDb();
  const queryClient = useQueryClient();
  const { postId } = useThreadContext();
  return useCallback(async () => {
    try {
      await deleteComment(commentId, db);
      toast.info('info/comment_deleted');
    } catch (err) {
      // A failed delete is only logged; the thread is read again either way.
      console.warn('delete comment', translateMessage(t, `error/${errorKeyOf(err)}`));
    }
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: queryKeys.threads(db.name) }),
      queryClient.invalidateQueries({ queryKey: queryKeys.commentTrees(db.name) }),
      queryClient.invalidateQueries({ queryKey: queryKeys.post(db.name, postId) }),
    ]);
  }, [commentId, db, queryClient, postId, t]);
}

function CommentActions({
  comment,
  replies,
  repliesOpen,
  onToggleReplies,
  onReply,
  replying,
}: {
  comment: Comment;
  replies: number;
  repliesOpen: boolean;
  onToggleReplies: () => void;
  onReply: () => void;
  replying: boolean;
}) {
  const { t } = useTranslation(['comments', 'moderation']);
  const [confirming, setConfirming] = useState(false);
  const [reporting, setReporting] = useState(false);
  const { isLoggedIn } = useSession();
  const loginLink = useLoginLink();
  const remove = useDeleteComment(comment._id);

  return (
    <div className="comment-actions">
      <LikeButton target="comment" item={comment} />
      <span className="comment-reply-count">{t('item.replies', { count: replies })}</span>
      {isLoggedIn ? (
        <button type="button" className="action comment-reply" aria-expanded={replying} onClick={onReply}>
          <Icon name="reply" size={18} />
          <span>{t('item.reply')}</span>
        </button>
      ) : (
        // A visitor is taken to the login, and back here after it, rather than shown a second
        // login prompt under the comment: the thread already has one.
        <Link className="action comment-reply" to={loginLink}>
          <Icon name="reply" size={18} />
          <span>{t('item.reply')}</span>
        </Link>
      )}
      {replies > 0 && (
        <button type="button" className="link-button" aria-expanded={repliesOpen} onClick={onToggleReplies}>
          {repliesOpen ? t('item.hide_replies') : t('item.show_replies')}
        </button>
      )}
      {comment.itsme && (
        <button type="button" className="link-button comment-delete" onClick={() => setConfirming(true)}>
          {t('item.delete')}
        </button>
      )}
      {isLoggedIn && !comment.itsme && (
        <button type="button" className="link-button comment-report" onClick={() => setReporting(true)}>
          {t('moderation:report.comment')}
        </button>
      )}
      {reporting && <ReportDialog kind="comment" id={comment._id} onClose={() => setReporting(false)} />}
      {confirming && (
        <ConfirmDialog
          question={deleteQuestion(t, 'comment')}
          action={deleteAction(t, 'comment')}
          onCancel={() => setConfirming(false)}
          onConfirm={() => {
            setConfirming(false);
            void remove();
          }}
        />
      )}
    </div>
  );
}

interface ItemProps {
  comment: Comment & { cachedAt?: number };
  pending?: PendingInfo;
  preset?: Preset;
  /** The comment asked for in the address (c=): highlighted. */
  highlighted?: boolean;
  /** How deep in the thread: 0 for a comment on the post. */
  depth?: number;
}

/**
 * Replies are indented this many levels; deeper ones continue flat under the last indented one
 * (each saying whom it answers), so the text keeps most of a phone's width however long the thread.
 */
export const MAX_INDENT = 3;

/** One comment of the thread with its replies below it. */
export function CommentItem({ comment: listed, pending, preset, highlighted, depth = 0 }: ItemProps) {
  const { t } = useTranslation(['comments', 'moderation']);
  const { postId, pending: pendingRows } = useThreadContext();
  const comment = useLiveComment(listed);
  const [replying, setReplying] = useState(false);
  const [open, setOpen] = useState(!!preset && preset.children.length > 0);
  const pendingReplies = pending ? 0 : pendingRows.filter((r) => r.payload.parent === comment._id).length;
  const newer = useNewerComments(postId, pending ? undefined : comment.cachedAt, comment._id);
  const replies = comment.comments + pendingReplies + newer;
  const deleted = comment.deleted || comment.author.username === DELETED;
  const answers = depth > MAX_INDENT && comment.parent && !comment.parent.directParent ? comment.parent.author.username : null;

  return (
    <li className={`comment${highlighted ? ' comment-highlighted' : ''}${pending ? ' comment-pending' : ''}`}>
      <article data-comment-id={comment._id} aria-current={highlighted ? 'true' : undefined}>
        {deleted ? (
          <p className="comment-deleted">{t('item.deleted')}</p>
        ) : (
          <>
            <header className="comment-header">
              <Avatar id={comment.author.pfp} url={comment.author.pfpUrl} size={32} />
              <Byline username={comment.author.username} time={comment.createdAt} prefix="comment" />
              {answers !== null && <span className="comment-reply-to">{t('item.reply_to', { username: answers })}</span>}
              {!pending && <OpenOriginal remote={comment.remote} />}
              {pending && (
                <span className={`badge badge-pending badge-${pending.status}`} role="status">
                  {pending.status === 'sending' ? t('item.sending') : pending.status === 'failed' ? t('item.retrying') : t('item.pending')}
                </span>
              )}
            </header>
            <Tags groups={[]} mentions={comment.mentions} text={comment.text} />
            <p className="comment-text">
              <PostText text={comment.text} mentions={comment.mentions} />
            </p>
            <CommentImage url={comment.media?.[0]} blob={pending?.image} alt={comment.alts?.[0]} />
          </>
        )}
        {!pending && !deleted && (
          <CommentActions
            comment={comment}
            replies={replies}
            repliesOpen={open}
            replying={replying}
            onReply={() => setReplying((r) => !r)}
            onToggleReplies={() => setOpen((o) => !o)}
          />
        )}
        {!pending && deleted && replies > 0 && (
          <button type="button" className="link-button" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
            {open ? t('item.hide_replies') : t('item.show_replies')}
          </button>
        )}
      </article>
      {replying && (
        <CommentBox
          parentId={comment._id}
          postId={postId}
          autoFocus
          onQueued={() => {
            setReplying(false);
            setOpen(true);
          }}
        />
      )}
      {open && !pending && <CommentList parentId={comment._id} preset={preset} nested depth={depth + 1} />}
    </li>
  );
}

/** A tree node as a comment, the replies it already holds, and whether it is the pinned one. */
export function fromNode(node: CommentNode): [Comment, Preset | undefined, boolean] {
  const { children, hasMore, pinned, ...comment } = node;
  // Opens with the replies the tree holds: the chain down to the pinned one, then its first page.
  return [comment, children.length > 0 ? { children, hasMore } : undefined, pinned];
}

interface ListProps {
  parentId: string;
  preset?: Preset | undefined;
  /** Left out of the list (it is shown pinned above). */
  pinnedId?: string | null;
  /** Wait before loading (the pinned tree is still on its way). */
  enabled?: boolean;
  nested?: boolean;
  /** The depth of the listed comments (0 on the post). */
  depth?: number;
}

/**
 * One level of the thread: my pending and just-sent comments first, then the stored pages, 5 at a time behind a load-more button.
 */
export function CommentList({ parentId, preset, pinnedId, enabled = true, nested, depth = 0 }: ListProps) {
  const { t } = useTranslation(['comments', 'moderation']);
  const { postId, sort, time, pending } = useThreadContext();
  const params = useMemo(
    // Replies are listed over all time: a window would hide the older half of a conversation.
    () => ({ parentId, sort, time: nested ? ('all' as const) : time, pinned: pinnedId ?? null }),
    [parentId, sort, time, nested, pinnedId],
  );
  const thread = useThread(params, { postId, enabled, deferred: !!preset });
  const rows = pending.filter((r) => r.payload.parent === parentId);

  const shown = useMemo(() => {
    const seen = new Set<string>();
    const out: Array<{ comment: Comment & { cachedAt?: number }; preset?: Preset; highlighted?: boolean }> = [];
    const add = (comment: Comment & { cachedAt?: number }, sub?: Preset, highlighted?: boolean) => {
      if (seen.has(comment._id) || comment._id === pinnedId) return;
      seen.add(comment._id);
      out.push({ comment, ...(sub ? { preset: sub } : {}), ...(highlighted ? { highlighted } : {}) });
    };
    for (const c of thread.fresh) add(c);
    for (const node of preset?.children ?? []) add(...fromNode(node));
    for (const c of thread.comments) add(c);
    return out;
  }, [thread.fresh, thread.comments, preset, pinnedId]);

  const canLoadMore = preset && thread.pages === 0 ? preset.hasMore : thread.hasMore && !thread.isLoading;
  return (
    <div className={nested ? `comment-replies${depth > MAX_INDENT ? ' comment-replies--flat' : ''}` : 'comment-list'}>
      <ul>
        {rows.map((row) => (
          <CommentItem
            key={row.clientId}
            comment={pendingCommentView(row)}
            pending={{ status: row.status, image: row.images[0]?.blob }}
            depth={depth}
          />
        ))}
        {shown.map(({ comment, preset: sub, highlighted }) => (
          <CommentItem key={comment._id} comment={comment} highlighted={highlighted} depth={depth} {...(sub ? { preset: sub } : {})} />
        ))}
      </ul>
      {(thread.isLoading || !enabled) &&
        (!nested && rows.length === 0 && shown.length === 0 ? (
          <Skeleton kind="comment" label={t('list.loading')} />
        ) : (
          <p className="list-status" role="status">
            {t('list.loading')}
          </p>
        ))}
      {thread.unavailable && rows.length === 0 && shown.length === 0 && <NotStoredLine error={thread.error} />}
      {!nested && !pinnedId && enabled && !thread.isLoading && !thread.isFetching && !thread.unavailable && rows.length === 0 && shown.length === 0 && thread.pages > 0 && (
        <p className="list-status">{t('list.empty')}</p>
      )}
      {canLoadMore && (
        <button type="button" className="button comment-load-more" onClick={thread.loadMore}>
          {nested ? t('list.more_replies') : t('list.load_more')}
        </button>
      )}
    </div>
  );
}
