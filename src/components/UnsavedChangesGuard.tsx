import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useBlocker } from 'react-router-dom';
import { ConfirmDialog } from './ConfirmDialog';

/**
 * While `when` holds (a field edited and not saved), leaving the screen asks first: a link or Back
 * inside the app opens the question, with staying as the way out; closing or reloading the tab
 * gets the browser's own warning. `question` names what would be lost.
 */
export function UnsavedChangesGuard({ when, question }: { when: boolean; question: string }) {
  const { t } = useTranslation('common');
  const blocker = useBlocker(({ currentLocation, nextLocation }) => when && currentLocation.pathname !== nextLocation.pathname);

  useEffect(() => {
    if (!when) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [when]);

  if (blocker.state !== 'blocked') return null;
  return (
    <ConfirmDialog
      question={question}
      detail={t('unsaved.detail')}
      action={t('unsaved.leave')}
      onCancel={() => blocker.reset()}
      onConfirm={() => blocker.proceed()}
    />
  );
}
