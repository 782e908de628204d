import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PERSON_STATES, type PersonItem, type PersonState } from '#core/api/people';
import { LIMITS } from '#core/limits';
import { AppLink } from '../../components/AppLink';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { Field, FormField } from '../../components/FormField';
import { PageHeader } from '../../components/PageHeader';
import { RelativeTime } from '../../components/RelativeTime';
import { PagedList, useModerationCall } from '../../components/moderation/ModerationLists';
import { setSuspended } from '../../lib/moderation';
import { useOnline } from '../../lib/online';
import { useSession } from '../../lib/session';
import { useDebounced } from '../../lib/useDebounced';
import { setModerator, usePeople } from './people.api';
import './moderation-pages.css';

type Confirming = { person: PersonItem; change: 'suspend' | 'revoke' };

/** One account: its name, address, standing, and what a moderator may change about it. */
function PersonRow({ person, self, busy, onChange }: {
  person: PersonItem;
  self: boolean;
  busy: boolean;
  onChange: (change: 'suspend' | 'unsuspend' | 'grant' | 'revoke') => void;
}) {
  const { t } = useTranslation('instance');
  const online = useOnline();
  const { username } = person;
  const badges = (['moderator', 'suspended'] as const).filter((badge) => person[badge]);
  return (
    <li className="people-row">
      <p className="people-row__who">
        <AppLink to={`/u/${encodeURIComponent(username)}`}>{username}</AppLink>
        {self && <span className="moderation-report__meta"> ({t('people.you')})</span>}
        {badges.map((badge) => (
          <span key={badge} className="badge">
            {t(`people.badge.${badge}`)}
          </span>
        ))}
        {!person.verified && <span className="badge">{t('people.badge.unverified')}</span>}
      </p>
      <p className="moderation-report__meta">
        {person.email ?? ''} · {t('people.joined')} <RelativeTime time={person.createdAt} />
      </p>
      <div className="moderation-report__actions">
        {!self && (
          <button
            type="button"
            className={`button${person.suspended ? '' : ' button--danger'}`}
            disabled={!online || busy}
            onClick={() => onChange(person.suspended ? 'unsuspend' : 'suspend')}
          >
            {t(person.suspended ? 'people.unsuspend' : 'people.suspend', { username })}
          </button>
        )}
        <button type="button" className="button" disabled={!online || busy} onClick={() => onChange(person.moderator ? 'revoke' : 'grant')}>
          {t(person.moderator ? 'people.revoke' : 'people.grant', { username })}
        </button>
      </div>
    </li>
  );
}

/**
 * /moderation/people: the instance's accounts for its moderators, found by name or address and
 * by standing; each can be suspended (or its suspension lifted) and made a moderator (or no longer).
 * Like every moderation action, each is sent at once, online only, and the lists are read again.
 */
export default function PeoplePage() {
  const { t } = useTranslation('instance');
  const { id: ownId } = useSession();
  const [query, setQuery] = useState('');
  const [state, setState] = useState<PersonState | null>(null);
  const people = usePeople(useDebounced(query, LIMITS.debounceMs), state);
  const { busy, run } = useModerationCall();
  const [confirming, setConfirming] = useState<Confirming | null>(null);

  function change(person: PersonItem, what: 'suspend' | 'unsuspend' | 'grant' | 'revoke') {
    if (what === 'suspend' || what === 'revoke') setConfirming({ person, change: what });
    else if (what === 'unsuspend') void run(() => setSuspended(person._id, false));
    else void run(() => setModerator(person._id, true));
  }

  return (
    <section className="moderation-page">
      <PageHeader title={t('people.title')} heading fallback="/moderation" />
      <div className="moderation-section people-filters">
        <FormField
          label={t('people.search')}
          type="search"
          value={query}
          maxLength={200}
          autoCapitalize="none"
          spellCheck={false}
          onChange={(event) => setQuery(event.target.value)}
        />
        <Field
          label={t('people.state')}
          control={(props) => (
            <select {...props} value={state ?? 'all'} onChange={(event) => setState(event.target.value === 'all' ? null : (event.target.value as PersonState))}>
              {(['all', ...PERSON_STATES] as const).map((option) => (
                <option key={option} value={option}>
                  {t(`people.states.${option}`)}
                </option>
              ))}
            </select>
          )}
        />
      </div>
      <section className="moderation-section" aria-label={t('people.list')}>
        <PagedList list={people} empty={t('people.empty')}>
          {(items) => (
            <ul className="moderation-reports" aria-label={t('people.list')}>
              {items.map((person) => (
                <PersonRow key={person._id} person={person} self={person._id === ownId} busy={busy} onChange={(what) => change(person, what)} />
              ))}
            </ul>
          )}
        </PagedList>
      </section>
      {confirming && (
        <ConfirmDialog
          question={t(confirming.change === 'suspend' ? 'people.confirm_suspend' : 'people.confirm_revoke', { username: confirming.person.username })}
          action={t(confirming.change === 'suspend' ? 'people.suspend' : 'people.revoke', { username: confirming.person.username })}
          onCancel={() => setConfirming(null)}
          onConfirm={() => {
            const { person, change: what } = confirming;
            setConfirming(null);
            void run(() => (what === 'suspend' ? setSuspended(person._id, true) : setModerator(person._id, false)));
          }}
        />
      )}
    </section>
  );
}
