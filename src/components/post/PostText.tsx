import { AppLink } from '../AppLink';
import { tokenizeText } from '#core/text';
import type { MentionTag } from '../../lib/api/types';

const profilePath = (username: string) => `/u/${encodeURIComponent(username)}`;

/**
 * Post or comment text with #hashtags linked to /h/{hashtag} and the @names of its mentioned users
 * linked to their profiles (a name that matched no account stays text).
 */
export function PostText({ text, mentions = [] }: { text: string; mentions?: readonly MentionTag[] }) {
  const ids = new Map(mentions.map((m) => [m.username, m._id]));
  return (
    <>
      {tokenizeText(text, mentions.map((m) => m.username)).map((token, i) => {
        if (token.kind === 'hashtag') {
          return (
            <AppLink key={i} to={`/h/${encodeURIComponent(token.tag)}`} className="hashtag text-link text-link--accent text-link--in-text">
              {token.value}
            </AppLink>
          );
        }
        if (token.kind === 'mention' && ids.get(token.username)) {
          return (
            <AppLink key={i} to={profilePath(token.username)} className="mention text-link text-link--accent text-link--in-text">
              {token.value}
            </AppLink>
          );
        }
        return <span key={i}>{token.value}</span>;
      })}
    </>
  );
}
