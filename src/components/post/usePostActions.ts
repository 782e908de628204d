import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { errorKeyOf } from '../../lib/api/client';
import type { Post } from '../../lib/api/types';
import { queueLike } from '../../lib/outbox/outbox';
import { useLikeState } from '../../lib/outbox/useOutbox';
import { deletePost } from '../../lib/query/posts';
import { useSession } from '../../lib/session';
import { toast } from '../../lib/toast';

/** The link a share copies (000 §2: {site}/#/p/{postId}). */
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

/** Like (through the outbox, shown at once), share and delete of one post. */
export function usePostActions(post: Post) {
  const { isLoggedIn } = useSession();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const like = useLikeState('post', post._id, { liked: post.liked, likes: post.likes });

  const toggleLike = useCallback(() => {
    if (!isLoggedIn) {
      navigate('/login');
      return;
    }
    void queueLike('post', post._id, !like.liked, post.liked);
  }, [isLoggedIn, navigate, post._id, post.liked, like.liked]);

  const share = useCallback(() => sharePost(post._id), [post._id]);

  const remove = useCallback(async () => {
    try {
      await deletePost(post._id);
      toast.info('info/post_deleted');
    } catch (err) {
      toast.error(`error/${errorKeyOf(err)}`);
    }
    await queryClient.invalidateQueries({ queryKey: ['feed'] });
  }, [post._id, queryClient]);

  return { like, toggleLike, share, remove };
}
