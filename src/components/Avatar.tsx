import { useState } from 'react';
import './Avatar.css';

/** Avatars live at /media/{pfp|gp}/{id}.jpeg with default.jpeg as the fallback (000 §3, 001 §3). */
export function avatarUrl(kind: 'pfp' | 'gp', id: string | null | undefined): string {
  return `/media/${kind}/${id || 'default'}.jpeg`;
}

interface AvatarProps {
  kind?: 'pfp' | 'gp';
  id: string | null | undefined;
  size?: number;
  alt?: string;
  className?: string;
}

export function Avatar({ kind = 'pfp', id, size = 32, alt = '', className }: AvatarProps) {
  const [failed, setFailed] = useState(false);
  const src = failed ? avatarUrl(kind, null) : avatarUrl(kind, id);
  return (
    <img
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
