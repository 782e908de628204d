import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LIMITS } from '#core/limits';
import { AppLink } from '../../components/AppLink';
import { GroupRow, UserRow } from '../../components/EntityRow';
import { useProfile } from '../../lib/query/stored';
import { errorMessageOf } from '../../lib/api/client';
import { useSession } from '../../lib/session';
import { toast } from '../../lib/toast';
import { follow, joinGroup } from '../../lib/api/memberships';
import {
  type SuggestionKind,
  useGroupSuggestions,
  useHideSuggestions,
  useRefreshAfterSuggestion,
  useSuggestionsHidden,
  useUserSuggestions,
} from './suggestions.api';
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

/**
 * A titled panel of suggestions: what they are for, the list (when there is anyone or any group to
 * suggest), the panel's further ways (`children`), and Hide.
 */
function SuggestionList({ kind, title, hint, rows, children }: { kind: SuggestionKind; title: string; hint: string; rows: ReactNode[]; children?: ReactNode }) {
  const { t } = useTranslation('feed');
  const hide = useHideSuggestions(kind);
  const titleId = `suggestions-${kind}`;
  return (
    <section className="suggestions" aria-labelledby={titleId}>
      <div className="suggestions__head">
        <h2 id={titleId} className="suggestions__title">
          {title}
        </h2>
        <button type="button" className="link-button" onClick={hide}>
          {t('suggestions.hide')}
        </button>
      </div>
      <p className="suggestions__hint">{hint}</p>
      {rows.length > 0 ? <ul className="suggestions__list">{rows}</ul> : null}
      {children}
    </section>
  );
}

/** Accounts to follow, on the following feed until enough are followed. */
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
  return (
    <SuggestionList kind="users" title={t('suggestions.people')} hint={t('suggestions.people_hint')} rows={rows}>
      <p className="suggestions__more">
        <AppLink to="/search">{t('suggestions.search')}</AppLink>
      </p>
    </SuggestionList>
  );
}

/** Public groups to join, on the groups feed until the account is in enough groups. */
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
  return (
    <SuggestionList kind="groups" title={t('suggestions.groups')} hint={t('suggestions.groups_hint')} rows={rows}>
      <p className="suggestions__more">
        <AppLink to="/search">{t('suggestions.search')}</AppLink>
        <AppLink to="/create-group">{t('suggestions.create_group')}</AppLink>
      </p>
    </SuggestionList>
  );
}

/**
 * The suggestions of a tab while they are wanted: until the account follows (for people) or is in
 * (for groups) LIMITS.suggestionsUntil, as its own profile counts, unless it hid them. A follow or
 * join made here keeps them on screen: the count is read again on the next visit.
 */
export function useSuggestionsWanted(kind: SuggestionKind, username: string): boolean {
  const { profile } = useProfile(username);
  const hidden = useSuggestionsHidden(kind);
  const count = kind === 'users' ? profile?.following : profile?.groups;
  return hidden === false && count !== undefined && count < LIMITS.suggestionsUntil;
}
