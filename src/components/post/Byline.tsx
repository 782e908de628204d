import { AppLink } from '../AppLink';
import { RelativeTime } from '../RelativeTime';
import { UserName } from '../remote/Remote';

/** Who wrote a comment, leading to the profile, and when: classes `{prefix}-author` and `{prefix}-time`. */
export function Byline({ username, time, prefix }: { username: string; time: number; prefix: 'comment' | 'search-reply' }) {
  return (
    <>
      <AppLink className={`${prefix}-author text-link`} to={`/u/${encodeURIComponent(username)}`}>
        <UserName username={username} />
      </AppLink>
      <span className={`${prefix}-time`}>
        <RelativeTime time={time} />
      </span>
    </>
  );
}
