import { type ReactNode, useState } from 'react';
import { AppLink } from './AppLink';
import { Avatar, avatarUrl } from './Avatar';
import { LazyGallery } from './LazyGallery';
import './SubjectHeader.css';

interface SubjectHeaderProps {
  /** The avatar: a user's (pfp) or a group's (gp), opened full size in the gallery. */
  avatar: { kind: 'pfp' | 'gp'; id: string; url?: string | null; alt: string };
  openAvatarLabel: string;
  name: string;
  /** Shown beside the name (a group owner's settings link). */
  nameExtra?: ReactNode;
  /** The bio or the description, kept as written (line breaks). */
  text?: string | null;
  meta: ReactNode;
  /** Links to the subject's lists, with their counts. */
  counts: { key: string; to: string; label: string }[];
  /** Follow, join and the like. */
  children: ReactNode;
}

/** The head of a profile or a group page: avatar, name, text, when it began, its lists, its actions. */
export function SubjectHeader({ avatar, openAvatarLabel, name, nameExtra, text, meta, counts, children }: SubjectHeaderProps) {
  const [galleryOpen, setGalleryOpen] = useState(false);
  return (
    <header className="subject-header">
      <button type="button" className="subject-header__avatar" aria-label={openAvatarLabel} onClick={() => setGalleryOpen(true)}>
        <Avatar kind={avatar.kind} id={avatar.id} url={avatar.url} size={96} alt={avatar.alt} />
      </button>
      <LazyGallery
        open={galleryOpen}
        onClose={() => setGalleryOpen(false)}
        zoom={false}
        slides={[{ src: avatarUrl(avatar.kind, avatar.id, avatar.url), alt: avatar.alt }]}
      />
      <div className="subject-header__body">
        <div className="subject-header__title">
          <h1>{name}</h1>
          {nameExtra}
        </div>
        {text && <p className="subject-header__text">{text}</p>}
        <p className="subject-header__meta">{meta}</p>
        <ul className="subject-header__counts">
          {counts.map((count) => (
            <li key={count.key}>
              <AppLink className="text-link" to={count.to}>{count.label}</AppLink>
            </li>
          ))}
        </ul>
        <div className="subject-header__actions">{children}</div>
      </div>
    </header>
  );
}
