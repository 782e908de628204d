import { type ComponentType, useEffect, useReducer, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../Icon';
import { useSession } from '../../lib/session';
import { toast } from '../../lib/toast';
import type { Post } from '../../lib/api/types';
import { adminGroupsOf } from './admin-groups';
import type { PostMenuPanelProps } from './PostMenuPanel';
import './post-card.css';

type Panel = ComponentType<PostMenuPanelProps>;

/**
 * The menu's entries and dialogs (report, mute, block, moderation, edit) are not needed to draw a
 * listing, so they come in their own chunk; once loaded, every card draws them at once.
 */
let panel: Panel | undefined;
let loading: Promise<Panel> | undefined;

/** Whether the entries are here, so a press draws them at once (offline too). */
export const postMenuPanelLoaded = (): boolean => panel !== undefined;

/** Loads the menu's entries and dialogs (once; a load that failed, offline, is tried again). */
export function loadPostMenuPanel(): Promise<Panel> {
  loading ??= import('./PostMenuPanel').then(
    (module) => (panel = module.PostMenuPanel),
    (err: unknown) => {
      loading = undefined;
      throw err;
    },
  );
  return loading;
}

let prefetching = false;

/**
 * The first card asks for the menu's chunk once the page is idle, after its first drawing: the
 * menu then opens offline too, before the service worker has stored the app (a report or a block
 * made offline is queued like any other change).
 */
function prefetchPanel(): void {
  if (prefetching) return;
  prefetching = true;
  const load = () => void loadPostMenuPanel().catch((err: unknown) => console.warn('post menu', err));
  if (typeof requestIdleCallback === 'function') requestIdleCallback(load, { timeout: 2000 });
  else setTimeout(load, 200);
}

interface Props {
  post: Post;
  /** Deletes the post (its author's action). */
  onDelete: () => Promise<void>;
}

/** The post card menu's button, and its entries once opened (see PostMenuPanel). */
export function PostMenu({ post, onDelete }: Props) {
  const { t } = useTranslation('post');
  // Another user's post offers reporting, muting and blocking its author to a signed-in reader.
  const { isLoggedIn } = useSession();
  const canReport = isLoggedIn && !post.itsme;
  const offersSafety = canReport && !!post.author.pfp;
  const [open, setOpen] = useState(false);
  // The entries mount with the first opening and stay, so a dialog they opened outlives the menu.
  const [used, setUsed] = useState(false);
  // Draws again when the menu's chunk arrives after a press that came before it.
  const [, loaded] = useReducer((n: number) => n + 1, 0);
  const wrapper = useRef<HTMLDivElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const offersAnything = post.itsme || post.canReply || canReport || adminGroupsOf(post).length > 0;
  // A visitor's cards offer nothing: their page never loads the menu.
  useEffect(() => {
    if (offersAnything) prefetchPanel();
  }, [offersAnything]);
  if (!offersAnything) return null;

  const onToggle = () => {
    setOpen((o) => !o);
    setUsed(true);
    if (!panel) {
      void loadPostMenuPanel().then(loaded, (err: unknown) => {
        // Offline before the app was stored: the press must not just do nothing.
        console.warn('post menu', err);
        setOpen(false);
        toast.error('common:not_offline');
      });
    }
  };
  const Entries = panel;

  return (
    <div className="post-menu" ref={wrapper}>
      <button
        ref={toggle}
        type="button"
        className="action post-menu-button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-label={t('menu')}
        onClick={onToggle}
      >
        <Icon name="more" size={20} />
      </button>
      {Entries && used && (
        <Entries
          post={post}
          onDelete={onDelete}
          canReport={canReport}
          offersSafety={offersSafety}
          open={open}
          setOpen={setOpen}
          wrapper={wrapper}
          toggle={toggle}
        />
      )}
    </div>
  );
}
