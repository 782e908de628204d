import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../Icon';
import { useMenuEntry, useMenu } from '../menu/useMenu';
import { setMute, useBlockState, useSafetyState } from './safety';
import { useUserSafety } from './UserSafety';
import './safety.css';

/**
 * The profile's menu of mute and block, beside the follow control, with a line saying when a
 * block stands between the caller and the user (whoever made it), and a badge with a way back
 * while the user is muted.
 */
export function SafetyMenu({ userId, username }: { userId: string; username: string }) {
  const { t } = useTranslation('safety');
  const blockedBy = useBlockState(userId);
  const blocking = useSafetyState('block', userId);
  const muted = useSafetyState('mute', userId);
  const { items, dialog } = useUserSafety(userId, username);
  const [open, setOpen] = useState(false);
  const wrapper = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const list = useMenu({ open, setOpen, wrapper, button });
  const run = useMenuEntry(setOpen, button);
  return (
    <div className="safety-menu" ref={wrapper}>
      <button ref={button} type="button" className="button safety-menu__button" aria-haspopup="menu" aria-expanded={open} aria-label={t('menu', { username })} onClick={() => setOpen((o) => !o)}>
        <Icon name="more" size={20} />
      </button>
      {open && (
        <ul ref={list} role="menu" className="safety-menu__list">
          {items(run)}
        </ul>
      )}
      {muted && (
        <p className="safety-menu__muted">
          <span className="badge">{t('muted_badge')}</span>
          <button type="button" className="link-button" aria-label={t('unmute_user', { username })} onClick={() => void setMute(userId, username, false)}>
            {t('unmute_short')}
          </button>
        </p>
      )}
      {(blocking || blockedBy) && <p className="safety-menu__note" role="status">{t(blocking ? 'blocking' : 'blocked_by', { username })}</p>}
      {dialog}
    </div>
  );
}
