/**
 * A full page load, at `path` when given (after an account delete: nothing of the account stays
 * in memory), else of the page as it is.
 */
export function reloadPage(path?: string): void {
  if (path === undefined) window.location.reload();
  else window.location.assign(path);
}
