import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DELETED } from '#core/limits';
import { usePost } from '../../lib/query/posts';
import { AppLink } from '../AppLink';
import { Avatar } from '../Avatar';
import { MediaImg } from '../MediaImg';
import './quoted-post.css';

/** The side of the quote's thumbnail, in CSS pixels (the box in quoted-post.css is the same). */
export const QUOTE_THUMB_PX = 56;

/**
 * Every state of the quote (loading, loaded, deleted, failed) is drawn in this one fixed-height
 * box, so the reply's card keeps its height when the original arrives and the cards below stay put.
 */
function QuoteBox({ state, children }: { state: 'loading' | 'missing'; children: ReactNode }) {
  return (
    <div className={`post-quoted post-quoted-${state}`} role={state === 'loading' ? 'status' : undefined}>
      <span className="post-quoted-body">{children}</span>
    </div>
  );
}

/**
 * The original of a reply as a compact preview: its author, two lines of its text and at most a
 * small thumbnail of its first picture. A tap opens the original.
 */
export function QuotedPost({ id }: { id: string }) {
  const { t } = useTranslation('post');
  const { post, cached, deleted, error } = usePost(id);
  if (deleted) return <QuoteBox state="missing">{t('post_deleted', { ns: 'error' })}</QuoteBox>;
  if (post) {
    const author = post.author.username === DELETED ? t('deleted_user') : post.author.username;
    const thumb = post.media?.[0];
    return (
      <AppLink className="post-quoted" to={`/p/${post._id}`}>
        <span className="post-quoted-body">
          <span className="post-quoted-author">
            <Avatar id={post.author.pfp} url={post.author.pfpUrl} size={20} />
            <span>{author}</span>
          </span>
          <span className="post-quoted-text">{post.text}</span>
        </span>
        {thumb && (
          <MediaImg
            className="post-quoted-thumb"
            src={thumb}
            alt={t('image_alt', { index: 1 })}
            width={QUOTE_THUMB_PX}
            height={QUOTE_THUMB_PX}
            loading="lazy"
            decoding="async"
          />
        )}
      </AppLink>
    );
  }
  if (error && cached) return <QuoteBox state="missing">{t('while_loading', { ns: 'error' })}</QuoteBox>;
  return <QuoteBox state="loading">{t('quoted_loading')}</QuoteBox>;
}
