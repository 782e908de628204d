import { createHash } from 'node:crypto';

/**
 * The CSP sources that let the page's own inline scripts run: one `'sha256-…'` per classic
 * `<script>` with no attributes (the build writes its theme script and the first screen's preloads
 * that way). Data blocks (`type="application/json"`) are not scripts to the browser and need none.
 * Hashing what the built page holds, rather than a copy kept here, keeps the two from drifting apart.
 */
export function inlineScriptSources(html: string): string[] {
  return [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(
    ([, body]) => `'sha256-${createHash('sha256').update(body ?? '', 'utf8').digest('base64')}'`,
  );
}
