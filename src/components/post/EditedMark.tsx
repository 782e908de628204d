import { Suspense, lazy, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Post } from '../../lib/api/types';

// The history comes with its first opening, not with every card.
const PostHistoryDialog = lazy(() => import('./PostEdits').then((m) => ({ default: m.PostHistoryDialog })));

/** "edited" beside the post's time: opens the earlier versions. */
export function EditedMark({ post }: { post: Post }) {
  const { t } = useTranslation('edits');
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="link-button post-edited" aria-label={t('edited_label')} onClick={() => setOpen(true)}>
        {t('edited')}
      </button>
      {open && (
        <Suspense fallback={null}>
          <PostHistoryDialog post={post} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
