import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DOMAIN_MAX } from '#core/api/moderation';
import { setDomainBlocked, useDomainBlocks } from '../../lib/moderation';
import { useOnline } from '../../lib/online';
import { ConfirmDialog } from '../ConfirmDialog';
import { RelativeTime } from '../RelativeTime';
import { PagedRows, useModerationCall } from './ModerationLists';

/**
 * The instance moderators' blocked domains: the list, a field to block one more and a button to lift
 * each block. Blocking is confirmed (it ends the domain's follows and suspends its accounts); like
 * every moderation action it is sent at once, online only (the page's queue says so while offline).
 * The server says what is not a domain.
 */
export function DomainBlocks() {
  const { t } = useTranslation('moderation');
  const online = useOnline();
  const blocks = useDomainBlocks();
  const { busy, run } = useModerationCall();
  const [domain, setDomain] = useState('');
  const [confirming, setConfirming] = useState<string | null>(null);
  const inputId = useId();

  function submit(event: FormEvent) {
    event.preventDefault();
    if (domain.trim()) setConfirming(domain.trim());
  }

  return (
    <section className="moderation-section" aria-labelledby="moderation-domains">
      <h2 id="moderation-domains">{t('domains.title')}</h2>
      <p className="moderation-report__meta">{t('domains.about')}</p>
      <form className="moderation-domain-form" onSubmit={submit}>
        <label htmlFor={inputId}>{t('domains.label')}</label>
        <input
          id={inputId}
          className="field__input"
          value={domain}
          maxLength={DOMAIN_MAX}
          placeholder="spam.example"
          autoCapitalize="none"
          autoCorrect="off"
          spellCheck={false}
          onChange={(event) => setDomain(event.target.value)}
        />
        <button type="submit" className="button button--danger" disabled={!online || busy || !domain.trim()}>
          {t('domains.block')}
        </button>
      </form>
      <PagedRows list={blocks} empty={t('domains.empty')} label={t('domains.title')}>
        {(item) => (
          <li key={item.domain} className="moderation-domain">
            <span>
              <strong>{item.domain}</strong>{' '}
              <span className="moderation-report__meta">
                {t('domains.by', { name: item.createdBy ?? t('gone') })} · <RelativeTime time={item.createdAt} />
              </span>
            </span>
            <button
              type="button"
              className="button"
              disabled={!online || busy}
              aria-label={t('domains.unblock_named', { domain: item.domain })}
              onClick={() => void run(() => setDomainBlocked(item.domain, false))}
            >
              {t('domains.unblock')}
            </button>
          </li>
        )}
      </PagedRows>
      {confirming && (
        <ConfirmDialog
          question={t('domains.confirm', { domain: confirming })}
          action={t('domains.block_action', { domain: confirming })}
          onCancel={() => setConfirming(null)}
          onConfirm={() => {
            const chosen = confirming;
            setConfirming(null);
            void run(() => setDomainBlocked(chosen, true)).then((done) => {
              if (done) setDomain('');
            });
          }}
        />
      )}
    </section>
  );
}
