import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { errorKeyOf } from '../../lib/api/client';
import type { Post } from '../../lib/api/types';
import { getDb } from '../../lib/db/db';
import { queryKeys } from '../../lib/query/keys';
import { deletePost } from '../../lib/query/posts';
import { toast } from '../../lib/toast';

/** The link a share copies. */
export const postLink = (id: string) => `${location.origin}/#/p/${id}`;

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
  const share = useCallback(() => sharePost(post._id), [post._id]);

  const remove = useCallback(async () => {
    try {
      await deletePost(post._id);
      toast.info('info/post_deleted');
    } catch (err) {
      toast.error(`error/${errorKeyOf(err)}`);
    }
    await queryClient.invalidateQueries({ queryKey: queryKeys.feeds(getDb().name) });
  }, [post._id, queryClient]);

  return { share, remove };
}
