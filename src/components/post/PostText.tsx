import { AppLink } from '../AppLink';
import { tokenizeText } from '#core/text';

/** Post or comment text with #hashtags linked to /h/{hashtag}. */
export function PostText({ text }: { text: string }) {
  return (
    <>
      {tokenizeText(text).map((token, i) =>
        token.kind === 'hashtag' ? (
          <AppLink key={i} to={`/h/${encodeURIComponent(token.tag)}`} className="hashtag">
            {token.value}
          </AppLink>
        ) : (
          <span key={i}>{token.value}</span>
        ),
      )}
    </>
  );
}
