import type { Executor } from '../../db/schema.js';
import { setRoleByName } from '../auth/auth.service.js';

/** What `npm run admin` was asked: make a user an instance moderator, or take it back. */
export type AdminCommand = { grant: string } | { revoke: string };

export const ADMIN_USAGE = 'Usage: npm run admin -- --grant <username> | --revoke <username>';

/** Reads `--grant <username>` or `--revoke <username>`; null when the arguments say neither. */
export function parseAdminArgs(args: readonly string[]): AdminCommand | null {
  if (args.length !== 2 || !args[1]) return null;
  if (args[0] === '--grant') return { grant: args[1] };
  if (args[0] === '--revoke') return { revoke: args[1] };
  return null;
}

/** Carries the command out; answers the line to print, or throws when there is no such user. */
export async function runAdminCommand(db: Executor, command: AdminCommand): Promise<string> {
  const [username, role] = 'grant' in command ? [command.grant, 'moderator' as const] : [command.revoke, 'user' as const];
  if (!(await setRoleByName(db, username, role))) throw new Error(`No user named ${username}.`);
  return role === 'moderator' ? `${username} is now a moderator.` : `${username} is no longer a moderator.`;
}
