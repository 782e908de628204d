import { AppLink } from './AppLink';
import type { ReactNode } from 'react';
import { Avatar } from './Avatar';
import { UserName } from './remote/Remote';
import './EntityList.css';

interface RowLook {
  /** The link's class: a plain list row by default. */
  className?: string;
  nameClassName?: string;
  /** Runs when the row is followed (the search page records it in the history). */
  onOpen?: () => void;
}

function EntityRow({ kind, to, id, url, label, className = 'entity-list__item', nameClassName, onOpen }: RowLook & {
  kind: 'pfp' | 'gp';
  to: string;
  id: string;
  url: string | null | undefined;
  label: ReactNode;
}) {
  return (
    <AppLink className={className} to={to} onClick={onOpen}>
      <Avatar kind={kind} id={id} url={url} size={40} />
      <span className={nameClassName}>{label}</span>
    </AppLink>
  );
}

/** A user as a list row: avatar and name, leading to the profile. */
export function UserRow({ user, ...look }: RowLook & { user: { username: string; pfp: string; pfpUrl?: string | null } }) {
  return <EntityRow kind="pfp" to={`/u/${encodeURIComponent(user.username)}`} id={user.pfp} url={user.pfpUrl} label={<UserName username={user.username} />} {...look} />;
}

/** A group as a list row: avatar and name (after `prefix`), leading to the group. */
export function GroupRow({ group, prefix = '', ...look }: RowLook & { group: { name: string; gp: string; gpUrl?: string | null }; prefix?: string }) {
  return <EntityRow kind="gp" to={`/g/${encodeURIComponent(group.name)}`} id={group.gp} url={group.gpUrl} label={`${prefix}${group.name}`} {...look} />;
}
