import { forbidden } from '../lib/app-error.js';
import type { Viewer } from '../lib/viewer.js';

/** Instance moderators: users.role 'moderator', set with the admin CLI. */
export const isModerator = (viewer: Viewer): boolean => viewer.user.role === 'moderator';

/** Refuses anyone else with 403 moderators_only. */
export function requireModerator(viewer: Viewer): void {
  if (!isModerator(viewer)) throw forbidden('moderators_only');
}
