import { type MouseEvent, type ReactNode, useEffect, useId, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import { Icon } from '../Icon';
import { AppLink, opensElsewhere } from '../AppLink';
import { DELETED, LIMITS } from '#core/limits';
import type { MentionTag, Post } from '../../lib/api/types';
import type { OutboxStatus } from '../../lib/db/db';
import { useCommentCount } from '../../lib/comment-count';
import { Avatar } from '../Avatar';
import { LikeButton } from '../LikeButton';
import { type ImagePriority, PostImages } from './PostImages';
import { PostMenu } from './PostMenu';
import { EditedMark } from './EditedMark';
import { OpenOriginal, SharedBy, UserName } from '../remote/Remote';
import { PostText } from './PostText';
import { QuotedPost } from './QuotedPost';
import { RelativeTime } from '../RelativeTime';
import { Tags } from './Tags';
import { usePostActions } from './usePostActions';
import { usePendingEdit } from '../../lib/outbox/useOutbox';
import { watchOverflow } from './text-overflow';
import './post-card.css';

export interface PendingInfo {
  status: OutboxStatus;
  /** Local images of a post not uploaded yet. */
  images: Blob[];
}

interface Props {
  post: Post;
  /** Set for a post still in the outbox: shown with a badge, without actions. */
  pending?: PendingInfo;
  /** Shown as the pinned post of the group whose page is being viewed: the pinned banner. */
  pinned?: boolean;
  /** Shown as the original being answered (while writing a reply): no actions, no nested quote. */
  quoted?: boolean;
  /** How soon the card's pictures load: lazily unless it is among the first a screen shows. */
  pictures?: ImagePriority;
}

function useObjectUrls(blobs: Blob[] | undefined): string[] {
  const urls = useMemo(() => (blobs ?? []).map((b) => URL.createObjectURL(b)), [blobs]);
  useEffect(() => () => urls.forEach((u) => URL.revokeObjectURL(u)), [urls]);
  return urls;
}

function CollapsibleText({ text, mentions }: { text: string; mentions: MentionTag[] }) {
  const { t } = useTranslation('post');
  const ref = useRef<HTMLDivElement>(null);
  const [long, setLong] = useState(false);
  const [expanded, setExpanded] = useState(false);
  // Subscribed as the text is mounted (not after the paint), so the first paint already knows.
  useLayoutEffect(() => {
    const el = ref.current;
    return el ? watchOverflow(el, LIMITS.collapsedPostPx, setLong) : undefined;
  }, [text]);
  const collapsed = long && !expanded;
  // Folded until expanded, long or not (a short text never reaches the fold): the fold is there from
  // the first paint, as on the server's cards, before the observer has said whether it cuts anything.
  return (
    <>
      <div
        ref={ref}
        className={`post-text${collapsed ? ' collapsed' : ''}`}
        style={expanded ? undefined : { maxHeight: `${LIMITS.collapsedPostPx}px`, overflow: 'hidden' }}
      >
        <PostText text={text} mentions={mentions} />
      </div>
      {long && (
        <button type="button" className="link-button" onClick={() => setExpanded((e) => !e)} aria-expanded={expanded}>
          {expanded ? t('show_less') : t('show_more')}
        </button>
      )}
    </>
  );
}

/**
 * A post with a content warning shows the warning and keeps its text and images out of the page
 * until the reader asks for them (and again when they hide them).
 */
function BehindWarning({ warning, children }: { warning: string; children: ReactNode }) {
  const { t } = useTranslation('post');
  const id = useId();
  const [shown, setShown] = useState(false);
  return (
    <>
      <div className="post-warning">
        <span className="post-warning-text">
          <span className="post-warning-label">{t('content_warning')}: </span>
          {warning}
        </span>
        <button
          type="button"
          className="link-button post-warning-toggle"
          aria-expanded={shown}
          aria-controls={id}
          aria-label={shown ? t('hide_content_label', { warning }) : t('show_content_label', { warning })}
          onClick={() => setShown((s) => !s)}
        >
          {shown ? t('hide_content') : t('show_content')}
        </button>
      </div>
      <div id={id} className="post-warning-content">
        {shown && children}
      </div>
    </>
  );
}

function AuthorName({ username }: { username: string }) {
  const { t } = useTranslation('post');
  if (username === DELETED) return <span className="post-author">{t('deleted_user')}</span>;
  return (
    <AppLink className="post-author text-link" to={`/u/${encodeURIComponent(username)}`}>
      <UserName username={username} />
    </AppLink>
  );
}

function PostActions({ post }: { post: Post & { cachedAt?: number } }) {
  const { t } = useTranslation('post');
  const { share, remove } = usePostActions(post);
  const comments = useCommentCount(post);
  return (
    <div className="post-actions">
      <LikeButton target="post" item={post} />
      {/* Named by its whole phrase ("3 comments"), showing the number beside the icon. */}
      <AppLink className="action post-comments" to={`/p/${post._id}`}>
        <Icon name="comment" size={20} />
        <span className="action__count" aria-hidden="true">
          {comments}
        </span>
        <span className="visually-hidden">{t('comments', { count: comments })}</span>
      </AppLink>
      <button type="button" className="action post-share" aria-label={t('share')} onClick={() => void share()}>
        <Icon name="share" size={20} />
      </button>
      <PostMenu post={post} onDelete={remove} />
    </div>
  );
}

/** What a click on a card leaves to itself: its links, buttons and fields, and what opens from them. */
const OWN_CLICKS = 'a, button, input, textarea, select, label, summary, [role="button"], [role="menu"], [role="dialog"], [role="alertdialog"]';

/**
 * A click anywhere else on the card opens the post, as a tap on a post does in every peer; the
 * time stays its link for keyboards and new tabs. Selecting text is not a click on the card.
 */
function useOpensPost(postId: string, enabled: boolean) {
  const navigate = useNavigate();
  const path = `/p/${postId}`;
  const here = useLocation().pathname === path;
  if (!enabled || here) return undefined;
  return (event: MouseEvent<HTMLElement>) => {
    const target = event.target as Element;
    if (event.defaultPrevented || opensElsewhere(event) || !event.currentTarget.contains(target) || target.closest(OWN_CLICKS)) return;
    if (window.getSelection()?.toString()) return;
    navigate(path);
  };
}

/** The post card. */
export function PostCard({ post: stored, pending, pinned, quoted, pictures = 'lazy' }: Props) {
  const { t } = useTranslation('post');
  // An edit waiting in the outbox shows at once, even over a copy the server sent meanwhile.
  const post = usePendingEdit(stored);
  const localUrls = useObjectUrls(pending?.images);
  const images = pending ? localUrls : (post.media ?? []);
  const opensPost = useOpensPost(post._id, !pending && !quoted);
  return (
    // The card's click only repeats its time link, which keyboards and screen readers reach.
    <article
      className={`post-card${pending ? ' post-pending' : ''}${quoted ? ' post-card-quoted' : ''}${opensPost ? ' post-card-opens' : ''}`}
      data-post-id={post._id}
      onClick={opensPost}
    >
      {pinned && <div className="post-pinned">{t('pinned')}</div>}
      {!quoted && <SharedBy sharer={post.sharedBy} />}
      <header className="post-header">
        <Avatar id={post.author.pfp} url={post.author.pfpUrl} size={40} alt={t('avatar_alt', { username: post.author.username })} />
        <AuthorName username={post.author.username} />
        <span className="post-time">
          {quoted || pending ? <RelativeTime time={post.createdAt} /> : (
            <AppLink className="text-link" to={`/p/${post._id}`}>
              <RelativeTime time={post.createdAt} />
            </AppLink>
          )}
        </span>
        {post.editedAt && !pending ? <EditedMark post={post} /> : null}
        {!pending && !quoted && <OpenOriginal remote={post.remote} />}
        {pending && (
          <span className={`badge badge-pending badge-${pending.status}`} role="status">
            {pending.status === 'sending' ? t('sending') : pending.status === 'failed' ? t('retrying') : t('pending')}
          </span>
        )}
      </header>
      <Tags groups={post.groups} mentions={post.mentions} text={post.text} />
      {post.contentWarning?.trim() ? (
        <BehindWarning warning={post.contentWarning.trim()}>
          <CollapsibleText text={post.text} mentions={post.mentions} />
          <PostImages urls={images} alts={post.alts} priority={pictures} />
        </BehindWarning>
      ) : (
        <>
          <CollapsibleText text={post.text} mentions={post.mentions} />
          <PostImages urls={images} alts={post.alts} priority={pictures} />
        </>
      )}
      {post.replyingTo && !quoted && <QuotedPost id={post.replyingTo} />}
      {!quoted && !pending && <PostActions post={post} />}
    </article>
  );
}
