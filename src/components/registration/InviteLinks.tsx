import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { inviteUsable } from '#core/api/registration';
import { LIMITS } from '#core/limits';
import { currentLanguage } from '../../lib/i18n';
import { useOnline } from '../../lib/online';
import { createInvite, inviteUrl, revokeInvite, useOwnInvites } from '../../lib/registration';
import { PagedRows, useModerationCall } from '../moderation/ModerationLists';
import './registration.css';

/** A whole number from 1 to `max`, with its label. */
function NumberInput({ label, max, value, onChange }: { label: string; max: number; value: number; onChange: (value: number) => void }) {
  const id = useId();
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <input id={id} className="field__input registration-number" type="number" min={1} max={max} value={value} onChange={(event) => onChange(Number(event.target.value))} />
    </>
  );
}

/**
 * The caller's invite links: a form making one (how many sign-ups, for how many days) and the list,
 * each link with its uses and expiry, to copy or revoke. Made and revoked at once, online only; the
 * server says who may make them.
 */
export function InviteLinks() {
  const { t, i18n } = useTranslation('moderation');
  const online = useOnline();
  const dateOf = (time: number) => new Intl.DateTimeFormat(currentLanguage(i18n), { dateStyle: 'medium', timeStyle: 'short' }).format(time);
  const invites = useOwnInvites();
  const { busy, run } = useModerationCall();
  const [maxUses, setMaxUses] = useState(1);
  const [days, setDays] = useState(7);

  function submit(event: FormEvent) {
    event.preventDefault();
    void run(() => createInvite(maxUses, days));
  }

  return (
    <section className="moderation-section" aria-labelledby="moderation-invites">
      <h2 id="moderation-invites">{t('invites.title')}</h2>
      <form className="moderation-domain-form" onSubmit={submit}>
        <NumberInput label={t('invites.max_uses')} max={LIMITS.inviteMaxUses} value={maxUses} onChange={setMaxUses} />
        <NumberInput label={t('invites.days')} max={LIMITS.inviteMaxDays} value={days} onChange={setDays} />
        <button type="submit" className="button button--primary" disabled={!online || busy}>
          {t('invites.create')}
        </button>
      </form>
      <PagedRows list={invites} empty={t('invites.empty')} label={t('invites.title')}>
        {(item) => (
          <li key={item._id} className="registration-invite">
            <input className="field__input" readOnly value={inviteUrl(item.code)} aria-label={t('invites.link')} onFocus={(event) => event.target.select()} />
            <span className="moderation-report__meta">
              {t('invites.uses', { uses: item.uses, max: item.maxUses })} ·{' '}
              {inviteUsable(item) ? t('invites.expires', { date: dateOf(item.expiresAt) }) : t('invites.spent')}
            </span>
            <button
              type="button"
              className="button"
              disabled={!online || busy}
              aria-label={t('invites.revoke_named', { link: inviteUrl(item.code) })}
              onClick={() => void run(() => revokeInvite(item._id))}
            >
              {t('invites.revoke')}
            </button>
          </li>
        )}
      </PagedRows>
    </section>
  );
}
