import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useDb } from '../../lib/db/useDb';
import { useSession } from '../../lib/session';
import { type FollowState, type Profile, changeFollow, follow, followStateOf, patchStoredProfile, unfollow } from './profile.api';
import './profile.css';
import { useLoginLink } from '../../components/login-return';
import { MenuAction } from '../../components/menu/MenuAction';
import { Tooltip } from '../../components/Tooltip';
import { useMenu } from '../../components/menu/useMenu';

/**
 * The dropdown's choices while following: notified of every post (All) or not (Silent), each
 * with the line that says what it means.
 */
const NOTIFY_CHOICES = [
  { state: 'notify', notify: true, label: 'follow.all', hint: 'follow.all_hint' },
  { state: 'silent', notify: false, label: 'follow.silent', hint: 'follow.silent_hint' },
] as const;

/**
 * The follow control: Follow makes it silent; the dropdown moves between All
 * (notify) and Silent; Unfollow returns to Follow. Failures are only logged (the control goes back).
 */
export function FollowControl({ profile, simple = false }: { profile: Profile; simple?: boolean }) {
  const { t } = useTranslation('profile');
  const loginLink = useLoginLink();
  const db = useDb();
  const { isLoggedIn } = useSession();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const wrapper = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const list = useMenu({ open, setOpen, wrapper, button });
  const hintId = useId();
  const base = followStateOf(profile, isLoggedIn);
  const state: FollowState = simple && (base === 'login' || base === 'me') ? 'hidden' : base;

  async function apply(next: { follows: boolean; notify: boolean }, call: () => Promise<unknown>) {
    const before = { follows: profile.follows, notify: profile.notify, followers: profile.followers };
    if (next.follows === before.follows && next.notify === before.notify) {
      setOpen(false);
      return;
    }
    const followers = profile.followers + (next.follows === before.follows ? 0 : next.follows ? 1 : -1);
    setBusy(true);
    setOpen(false);
    await patchStoredProfile(db, profile.username, (p) => ({ ...p, ...next, followers }));
    try {
      await call();
    } catch (err) {
      console.error('follow', err);
      await patchStoredProfile(db, profile.username, (p) => ({ ...p, ...before }));
    } finally {
      setBusy(false);
    }
  }

  switch (state) {
    case 'hidden':
      return null;
    case 'login':
    case 'me':
      return (
        <Link className="button follow-control" to={state === 'login' ? loginLink : '/account'}>
          {t(state === 'login' ? 'follow.login' : 'follow.edit')}
        </Link>
      );
    case 'follow':
      return (
        <button
          type="button"
          className="button button--primary follow-control"
          disabled={busy}
          onClick={() => void apply({ follows: true, notify: false }, () => follow(profile.pfp))}
        >
          {t('follow.follow')}
        </button>
      );
    default:
      return (
        <div className="follow-control follow-menu" ref={wrapper}>
          <Tooltip label={t(state === 'notify' ? 'follow.all_hint' : 'follow.silent_hint')}>
            <button ref={button} type="button" className="button" aria-haspopup="menu" aria-expanded={open} disabled={busy} onClick={() => setOpen((o) => !o)}>
              {t('follow.following')} · {state === 'notify' ? t('follow.all') : t('follow.silent')} ▾
            </button>
          </Tooltip>
          {open && (
            <ul ref={list} className="follow-menu__list" role="menu">
              {NOTIFY_CHOICES.map((choice) => (
                <li key={choice.state} role="none">
                  <button
                    type="button"
                    role="menuitemradio"
                    aria-checked={state === choice.state}
                    aria-label={t(choice.label)}
                    aria-describedby={`${hintId}-${choice.state}`}
                    onClick={() => void apply({ follows: true, notify: choice.notify }, () => changeFollow(profile.pfp, choice.notify))}
                  >
                    <span aria-hidden="true">{t(choice.label)}</span>
                    <span id={`${hintId}-${choice.state}`} className="follow-menu__hint">
                      {t(choice.hint)}
                    </span>
                  </button>
                </li>
              ))}
              <MenuAction onClick={() => void apply({ follows: false, notify: false }, () => unfollow(profile.pfp))}>{t('follow.unfollow')}</MenuAction>
            </ul>
          )}
        </div>
      );
  }
}
