import { appPaths } from '#core/app-paths';
import { remoteNameOf } from '#core/remote-names';
import { mentionsInText } from '#core/text';
import { AppLink } from '../AppLink';
import { UserName } from '../remote/Remote';
import type { MentionTag, Tag } from '../../lib/api/types';
import './post-card.css';

/**
 * Group tags (&name) and mentions (@name): linked when they carry an id, plain text otherwise. A
 * mention the text already names as @name is linked there, so it is not shown a second time here.
 * A group tag naming a community of another server (`name@host`, no group here) links to the
 * community's profile, its server shown as after a remote account's name.
 */
export function Tags({ groups, mentions: all, text }: { groups: Tag[]; mentions: MentionTag[]; text: string }) {
  const inText = mentionsInText(text, all.map((m) => m.username));
  const mentions = all.filter((m) => !inText.has(m.username));
  if (groups.length === 0 && mentions.length === 0) return null;
  return (
    <ul className="post-tags">
      {groups.map((g, i) => (
        <li key={`g${i}`} className="tag tag-group">
          {g._id ? (
            <AppLink className="text-link text-link--accent" to={`/g/${encodeURIComponent(g.name)}`}>&amp;{g.name}</AppLink>
          ) : remoteNameOf(g.name) ? (
            <AppLink className="text-link text-link--accent" to={appPaths.user(g.name)}>
              &amp;<UserName username={g.name} />
            </AppLink>
          ) : (
            <span>&amp;{g.name}</span>
          )}
        </li>
      ))}
      {mentions.map((m, i) => (
        <li key={`m${i}`} className="tag tag-mention">
          {m._id ? <AppLink className="text-link text-link--accent" to={`/u/${encodeURIComponent(m.username)}`}>@{m.username}</AppLink> : <span>@{m.username}</span>}
        </li>
      ))}
    </ul>
  );
}
