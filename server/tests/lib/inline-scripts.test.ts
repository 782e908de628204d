import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { inlineScriptSources } from '../../src/lib/inline-scripts';
import { useTestApp } from '../helpers/test-app';

const SCRIPT = 'document.documentElement.setAttribute("data-theme","dark");';
const hashOf = (body: string) => `'sha256-${createHash('sha256').update(body).digest('base64')}'`;

describe('inlineScriptSources', () => {
  it('hashes each classic inline script and nothing else', () => {
    const html =
      `<head><script>${SCRIPT}</script><script type="module" src="/assets/a.js"></script></head>` +
      '<body><script type="application/json" id="data">{"a":1}</script><script>\nvar b = 2;\n</script></body>';
    expect(inlineScriptSources(html)).toEqual([hashOf(SCRIPT), hashOf('\nvar b = 2;\n')]);
    expect(inlineScriptSources('<p>no scripts</p>')).toEqual([]);
  });
});

describe("the CSP lets the built page's own inline script run, and only it", () => {
  const webDir = mkdtempSync(join(tmpdir(), 'kruh-web-'));
  writeFileSync(join(webDir, 'index.html'), `<!doctype html><html><head><script>${SCRIPT}</script></head><body></body></html>`);
  afterAll(() => rmSync(webDir, { recursive: true, force: true }));
  const t = useTestApp({ WEB_DIR: webDir });

  it('names its hash in script-src, on the page and on the API alike', async () => {
    for (const url of ['/', '/api/health']) {
      const csp = String((await t.app.inject({ method: 'GET', url })).headers['content-security-policy']);
      const scriptSrc = /script-src ([^;]*)/.exec(csp)?.[1] ?? '';
      expect(scriptSrc.split(' ')).toContain(hashOf(SCRIPT));
      expect(scriptSrc).not.toContain('unsafe-inline');
    }
  });
});
