import { Link } from 'react-router-dom';
import { tokenizeText } from '#core/text';

/** Post or comment text with #hashtags linked to /h/{hashtag}. */
export function PostText({ text }: { text: string }) {
  return (
    <>
      {tokenizeText(text).map((token, i) =>
        token.kind === 'hashtag' ? (
          <Link key={i} to={`/h/${encodeURIComponent(token.tag)}`} className="hashtag">
            {token.value}
          </Link>
        ) : (
          <span key={i}>{token.value}</span>
        ),
      )}
    </>
  );
}
