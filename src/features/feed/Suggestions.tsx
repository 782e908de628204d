import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { GroupRow, UserRow } from '../../components/EntityRow';
import { errorMessageOf } from '../../lib/api/client';
import { useSession } from '../../lib/session';
import { toast } from '../../lib/toast';
import { follow, joinGroup } from '../../lib/api/memberships';
import { useGroupSuggestions, useRefreshAfterSuggestion, useUserSuggestions } from './suggestions.api';
import './suggestions.css';

/**
 * The button of one suggestion: calls the server once, then says it is done and stays so. A
 * failure is told as a toast and the button may be pressed again.
 */
function SuggestionAction({ label, doneLabel, name, run }: { label: string; doneLabel: string; name: string; run: () => Promise<unknown> }) {
  const [state, setState] = useState<'idle' | 'busy' | 'done'>('idle');
  const act = async () => {
    setState('busy');
    try {
      await run();
      setState('done');
    } catch (err) {
      console.error('suggestion', err);
      toast.error(errorMessageOf(err));
      setState('idle');
    }
  };
  if (state === 'done') {
    return (
      <button type="button" className="button suggestions__action" disabled>
        {doneLabel}
      </button>
    );
  }
  return (
    <button
      type="button"
      className="button button--primary suggestions__action"
      aria-label={`${label} ${name}`}
      disabled={state === 'busy'}
      onClick={() => void act()}
    >
      {label}
    </button>
  );
}

/** A titled list of suggestions, or nothing while there are none. */
function SuggestionList({ kind, title, hint, rows }: { kind: string; title: string; hint: string; rows: ReactNode[] }) {
  if (rows.length === 0) return null;
  const titleId = `suggestions-${kind}`;
  return (
    <section className="suggestions" aria-labelledby={titleId}>
      <h2 id={titleId} className="suggestions__title">
        {title}
      </h2>
      <p className="suggestions__hint">{hint}</p>
      <ul className="suggestions__list">{rows}</ul>
    </section>
  );
}

/** Accounts to follow, on the following feed while it has nothing to show. */
export function FollowSuggestions() {
  const { t } = useTranslation('feed');
  const { username } = useSession();
  const refresh = useRefreshAfterSuggestion();
  const users = useUserSuggestions().data ?? [];
  const rows = users.map((user) => (
    <li key={user._id} className="suggestions__item">
      <UserRow user={user} className="suggestions__who" />
      <span className="suggestions__count">{t('suggestions.followers', { count: user.followers })}</span>
      <SuggestionAction
        label={t('suggestions.follow')}
        doneLabel={t('suggestions.following')}
        name={user.username}
        run={() => follow(user.pfp).then(() => refresh(username, false))}
      />
    </li>
  ));
  return <SuggestionList kind="users" title={t('suggestions.people')} hint={t('suggestions.people_hint')} rows={rows} />;
}

/** Public groups to join, on the groups feed while it has nothing to show. */
export function GroupSuggestions() {
  const { t } = useTranslation('feed');
  const { username } = useSession();
  const refresh = useRefreshAfterSuggestion();
  const groups = useGroupSuggestions().data ?? [];
  const rows = groups.map((group) => (
    <li key={group._id} className="suggestions__item">
      <GroupRow group={group} className="suggestions__who" />
      <span className="suggestions__count">{t('suggestions.members', { count: group.members })}</span>
      <SuggestionAction
        label={t('suggestions.join')}
        doneLabel={t('suggestions.joined')}
        name={group.name}
        run={() => joinGroup(group.name).then(() => refresh(username, true))}
      />
    </li>
  ));
  return <SuggestionList kind="groups" title={t('suggestions.groups')} hint={t('suggestions.groups_hint')} rows={rows} />;
}
