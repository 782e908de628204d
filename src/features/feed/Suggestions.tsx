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
 * The words of each kind of suggestion (the panel's title and hint, the count, the button before
 * and after) and the panel's further ways.
 */
const KINDS = {
  users: {
    title: 'suggestions.people', hint: 'suggestions.people_hint', count: 'suggestions.followers', act: 'suggestions.follow', done: 'suggestions.following',
    more: [{ to: '/search', label: 'suggestions.search' }],
  },
  groups: {
    title: 'suggestions.groups', hint: 'suggestions.groups_hint', count: 'suggestions.members', act: 'suggestions.join', done: 'suggestions.joined',
    more: [{ to: '/search', label: 'suggestions.search' }, { to: '/create-group', label: 'suggestions.create_group' }],
  },
} as const satisfies Record<SuggestionKind, unknown>;

/** What one suggested account or group shows and does. */
interface Suggested {
  who: ReactNode;
  count: number;
  name: string;
  run: () => Promise<unknown>;
}

/**
 * A titled panel of suggestions of one kind: what they are for, the list (when there is anyone or
 * any group to suggest), the panel's further ways, and Hide. Acting on one refreshes the feeds, and
 * the group strip too when a group was joined.
 */
function SuggestionList<T extends { _id: string }>({ kind, items, partsOf }: { kind: SuggestionKind; items: readonly T[]; partsOf: (item: T) => Suggested }) {
  const { t } = useTranslation('feed');
  const { username } = useSession();
  const refresh = useRefreshAfterSuggestion();
  const hide = useHideSuggestions(kind);
  const texts = KINDS[kind];
  const titleId = `suggestions-${kind}`;
  const rows = items.map((item) => {
    const { who, count, name, run } = partsOf(item);
    const action = { label: t(texts.act), doneLabel: t(texts.done), name, run: () => run().then(() => refresh(username, kind === 'groups')) };
    return <SuggestionItem key={item._id} who={who} count={t(texts.count, { count })} action={action} />;
  });
  return (
    <section className="suggestions" aria-labelledby={titleId}>
      <div className="suggestions__head">
        <h2 id={titleId} className="suggestions__title">
          {t(texts.title)}
        </h2>
        <button type="button" className="link-button" onClick={hide}>
          {t('suggestions.hide')}
        </button>
      </div>
      <p className="suggestions__hint">{t(texts.hint)}</p>
      {rows.length > 0 ? <ul className="suggestions__list">{rows}</ul> : null}
      <p className="suggestions__more">
        {texts.more.map(({ to, label }) => (
          <AppLink key={to} to={to}>
            {t(label)}
          </AppLink>
        ))}
      </p>
    </section>
  );
}

/** Accounts to follow, on the following feed until enough are followed. */
export function FollowSuggestions() {
  const users = useUserSuggestions().data ?? [];
  return <SuggestionList kind="users" items={users} partsOf={(user) => ({ who: <UserRow user={user} className="suggestions__who" />, count: user.followers, name: user.username, run: () => follow(user.pfp) })} />;
}

/** Public groups to join, on the groups feed until the account is in enough groups. */
export function GroupSuggestions() {
  const groups = useGroupSuggestions().data ?? [];
  return <SuggestionList kind="groups" items={groups} partsOf={(group) => ({ who: <GroupRow group={group} className="suggestions__who" />, count: group.members, name: group.name, run: () => joinGroup(group.name) })} />;
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
