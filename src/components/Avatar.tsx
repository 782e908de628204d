import { useState } from 'react';
import { useNewestAvatarUrl } from '../lib/own-avatar';
import { MediaImg } from './MediaImg';
import './Avatar.css';

/**
 * The one place the app gets an avatar's address. The server names each avatar with a versioned
 * URL (pfpUrl, gpUrl), cached for good and changed by a new upload; only a copy stored without one
 * (older local data, an item still in the outbox, a recent search) falls back to the plain
 * address /media/{pfp|gp}/{id}.jpeg, which the server answers with the current picture to
 * revalidate, and default.jpeg when there is no id.
 */
export function avatarUrl(kind: 'pfp' | 'gp', id: string | null | undefined, url?: string | null): string {
  return url || `/media/${kind}/${id || 'default'}.jpeg`;
}

interface AvatarProps {
  kind?: 'pfp' | 'gp';
  id: string | null | undefined;
  /** The versioned URL the server gave (pfpUrl or gpUrl), when known. */
  url?: string | null;
  size?: number;
  alt?: string;
  className?: string;
}

/** An avatar; the signed-in user's own shows the newest picture they uploaded (useNewestAvatarUrl). */
export function Avatar({ kind = 'pfp', id, url, size = 32, alt = '', className }: AvatarProps) {
  const [failed, setFailed] = useState(false);
  const newest = useNewestAvatarUrl(kind, id, url);
  const src = failed ? avatarUrl(kind, null) : avatarUrl(kind, id, newest);
  return (
    <MediaImg
      className={['avatar', className].filter(Boolean).join(' ')}
      src={src}
      alt={alt}
      width={size}
      height={size}
      loading="lazy"
      decoding="async"
      onError={() => setFailed(true)}
    />
  );
}
