import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { errorKeyOf } from '../../lib/api/client';
import type { Post } from '../../lib/api/types';
import { useDb } from '../../lib/db/useDb';
import { deletePostHere } from '../../lib/query/posts';
import { toast } from '../../lib/toast';
import { appPaths } from '#core/app-paths';

/** The link a share copies. */
export const postLink = (id: string) => new URL(appPaths.post(id), location.origin).href;

export async function sharePost(id: string): Promise<void> {
  if (!navigator.clipboard?.writeText) {
    toast.error('post:share_unsupported');
    return;
  }
  try {
    await navigator.clipboard.writeText(postLink(id));
    toast.info('post:share_copied');
  } catch {
    toast.error('post:share_failed');
  }
}

/** Share and delete of one post (the like is the shared LikeButton). */
export function usePostActions(post: Post) {
  const queryClient = useQueryClient();
  const db = useDb();
  const share = useCallback(() => sharePost(post._id), [post._id]);

  const remove = useCallback(async () => {
    try {
      await deletePostHere(queryClient, post._id, db);
      toast.info('info/post_deleted');
    } catch (err) {
      toast.error(`error/${errorKeyOf(err)}`);
    }
  }, [post._id, queryClient, db]);

  return { share, remove };
}
