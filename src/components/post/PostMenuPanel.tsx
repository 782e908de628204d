import { type RefObject, Suspense, lazy, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AppLink } from '../AppLink';
import { ConfirmDialog, deleteAction, deleteQuestion } from '../ConfirmDialog';
import { ReportDialog } from '../ReportDialog';
import type { Post } from '../../lib/api/types';
import { type AdminGroup, adminGroupsOf } from './admin-groups';
import { usePostModeration } from './usePostModeration';
import { useUserSafety } from '../safety/UserSafety';
import { MenuAction } from '../menu/MenuAction';
import { useMenuEntry, useMenu } from '../menu/useMenu';

// The editor comes with the first edit, not with every card.
const PostEditDialog = lazy(() => import('./PostEdits').then((m) => ({ default: m.PostEditDialog })));

type Confirming = { kind: 'delete' } | { kind: 'remove' | 'ban'; group: AdminGroup } | { kind: 'edit' } | { kind: 'report' };

export interface PostMenuPanelProps {
  post: Post;
  /** Deletes the post (its author's action). */
  onDelete: () => Promise<void>;
  /** What the menu offers, as PostMenu decided from the post and the session. */
  canReport: boolean;
  offersSafety: boolean;
  open: boolean;
  setOpen: (open: boolean) => void;
  /** The menu's box and its button (see useMenu). */
  wrapper: RefObject<HTMLDivElement | null>;
  toggle: RefObject<HTMLButtonElement | null>;
}

/**
 * The post card menu's entries and the dialogs they open: reply with a post, edit and delete
 * (author), report, mute and block (another user's post), and per group where the caller is an
 * admin: remove from the group, pin or unpin there, ban or unban the author there.
 */
export function PostMenuPanel({ post, onDelete, canReport, offersSafety, open, setOpen, wrapper, toggle }: PostMenuPanelProps) {
  const { t } = useTranslation(['post', 'common', 'edits', 'moderation']);
  const { remove, togglePin, toggleBan } = usePostModeration(post);
  const authorSafety = useUserSafety(post.author.pfp, post.author.username);
  const [confirming, setConfirming] = useState<Confirming | null>(null);
  const list = useMenu({ open, setOpen, wrapper, button: toggle });
  const adminGroups = adminGroupsOf(post);

  const run = useMenuEntry(setOpen, toggle);

  return (
    <>
      {open && (
        <ul ref={list} role="menu" className="post-menu-list">
          {post.canReply && (
            <li role="none">
              <AppLink role="menuitem" to={`/post?author=${encodeURIComponent(post.author.username)}&rep=${post._id}`}>
                {t('reply_with_post')}
              </AppLink>
            </li>
          )}
          {post.itsme && <MenuAction onClick={run(() => setConfirming({ kind: 'edit' }))}>{t('edits:edit')}</MenuAction>}
          {post.itsme && <MenuAction onClick={run(() => setConfirming({ kind: 'delete' }))}>{t('delete')}</MenuAction>}
          {canReport && <MenuAction onClick={run(() => setConfirming({ kind: 'report' }))}>{t('moderation:report.post')}</MenuAction>}
          {adminGroups.map((group) => (
            <li role="none" key={group.id} className="post-menu-group">
              <span className="post-menu-heading" aria-hidden="true">
                &amp;{group.name}
              </span>
              <ul role="group" aria-label={t('admin.group', { name: group.name })}>
                <MenuAction onClick={run(() => setConfirming({ kind: 'remove', group }))}>{t('admin.remove')}</MenuAction>
                <MenuAction onClick={run(() => void togglePin(group))}>{group.pinned ? t('admin.unpin') : t('admin.pin')}</MenuAction>
                {group.canBan && (
                  <MenuAction onClick={run(() => (group.authorBanned ? void toggleBan(group) : setConfirming({ kind: 'ban', group })))}>
                    {t(group.authorBanned ? 'admin.unban' : 'admin.ban', { username: post.author.username })}
                  </MenuAction>
                )}
              </ul>
            </li>
          ))}
          {offersSafety && authorSafety.items(run)}
        </ul>
      )}
      {authorSafety.dialog}
      {confirming?.kind === 'edit' && (
        <Suspense fallback={null}>
          <PostEditDialog post={post} onClose={() => setConfirming(null)} />
        </Suspense>
      )}
      {confirming?.kind === 'delete' && (
        <ConfirmDialog
          question={deleteQuestion(t, 'post')}
          action={deleteAction(t, 'post')}
          detail={t('common:conf.delete_post_detail')}
          onCancel={() => setConfirming(null)}
          onConfirm={() => {
            setConfirming(null);
            void onDelete();
          }}
        />
      )}
      {confirming?.kind === 'report' && <ReportDialog kind="post" id={post._id} onClose={() => setConfirming(null)} />}
      {confirming?.kind === 'remove' && (
        <ConfirmDialog
          question={t('common:conf.remove_post', { name: confirming.group.name })}
          detail={t('common:conf.remove_post_detail')}
          action={t('common:conf.remove_post_action')}
          onCancel={() => setConfirming(null)}
          onConfirm={() => {
            const { group } = confirming;
            setConfirming(null);
            void remove(group);
          }}
        />
      )}
      {confirming?.kind === 'ban' && (
        <ConfirmDialog
          question={t('common:conf.ban_user', { username: post.author.username, name: confirming.group.name })}
          action={t('common:conf.ban_action', { username: post.author.username })}
          onCancel={() => setConfirming(null)}
          onConfirm={() => {
            const { group } = confirming;
            setConfirming(null);
            void toggleBan(group);
          }}
        />
      )}
    </>
  );
}
