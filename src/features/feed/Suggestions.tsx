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
interface SuggestionActionProps {
  label: string;
  doneLabel: string;
  name: string;
  run: () => Promise<unknown>;
}

function SuggestionAction({ label, doneLabel, name, run }: SuggestionActionProps) {
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

/** One suggestion: who or what is suggested, how many follow or belong to it, and its button. */
function SuggestionItem({ who, count, action }: { who: ReactNode; count: string; action: SuggestionActionProps }) {
  return (
    <li className="suggestions__item">
      {who}
      <span className="suggestions__count">{count}</span>
      <SuggestionAction {...action} />
    </li>
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
    <SuggestionItem
      key={user._id}
      who={<UserRow user={user} className="suggestions__who" />}
      count={t('suggestions.followers', { count: user.followers })}
      action={{ label: t('suggestions.follow'), doneLabel: t('suggestions.following'), name: user.username, run: () => follow(user.pfp).then(() => refresh(username, false)) }}
    />
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
    <SuggestionItem
      key={group._id}
      who={<GroupRow group={group} className="suggestions__who" />}
      count={t('suggestions.members', { count: group.members })}
      action={{ label: t('suggestions.join'), doneLabel: t('suggestions.joined'), name: group.name, run: () => joinGroup(group.name).then(() => refresh(username, true)) }}
    />
  ));
  return <SuggestionList kind="groups" title={t('suggestions.groups')} hint={t('suggestions.groups_hint')} rows={rows} />;
}
