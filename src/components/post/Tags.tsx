import { AppLink } from '../AppLink';
import type { MentionTag, Tag } from '../../lib/api/types';
import './post-card.css';

/** Group tags (&name) and mentions (@name): linked when they carry an id, plain text otherwise. */
export function Tags({ groups, mentions }: { groups: Tag[]; mentions: MentionTag[] }) {
  if (groups.length === 0 && mentions.length === 0) return null;
  return (
    <ul className="post-tags">
      {groups.map((g, i) => (
        <li key={`g${i}`} className="tag tag-group">
          {g._id ? <AppLink to={`/g/${encodeURIComponent(g.name)}`}>&amp;{g.name}</AppLink> : <span>&amp;{g.name}</span>}
        </li>
      ))}
      {mentions.map((m, i) => (
        <li key={`m${i}`} className="tag tag-mention">
          {m._id ? <AppLink to={`/u/${encodeURIComponent(m.username)}`}>@{m.username}</AppLink> : <span>@{m.username}</span>}
        </li>
      ))}
    </ul>
  );
}
