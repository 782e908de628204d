import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../ConfirmDialog';
import { MenuAction } from '../menu/MenuAction';
import { setMute, setSafety, useSafetyState } from './safety';

/**
 * Mute and block of one user, for any menu: `items(run)` gives the menu's entries (`run` closes
 * the menu before acting), `dialog` the block's confirmation, drawn outside the menu so it outlives
 * it. A block asks first, as it also ends the follows; a mute and the lifting of either do not.
 */
export function useUserSafety(userId: string, username: string): { items: (run: (action: () => void) => () => void) => ReactNode; dialog: ReactNode } {
  const { t } = useTranslation('safety');
  const muted = useSafetyState('mute', userId);
  const blocked = useSafetyState('block', userId);
  const [confirming, setConfirming] = useState(false);
  const items = (run: (action: () => void) => () => void) => (
    <>
      <MenuAction onClick={run(() => void setMute(userId, username, !muted))}>{t(muted ? 'unmute_user' : 'mute_user', { username })}</MenuAction>
      <MenuAction onClick={run(() => (blocked ? void setSafety('block', userId, false, { label: username }) : setConfirming(true)))}>
        {t(blocked ? 'unblock_user' : 'block_user', { username })}
      </MenuAction>
    </>
  );
  const dialog = confirming ? (
    <ConfirmDialog
      question={t('block_question', { username })}
      detail={t('block_detail')}
      action={t('block_user', { username })}
      onCancel={() => setConfirming(false)}
      onConfirm={() => {
        setConfirming(false);
        void setSafety('block', userId, true, { label: username });
      }}
    />
  ) : null;
  return { items, dialog };
}
