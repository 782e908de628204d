import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { folderGraph, placeOf } from '../../scripts/imports/folder-graph';
import { MODULE_ORDER, breachLines, checkRules, ruleBreaches } from '../../scripts/imports/import-rules';
import { readServerImports } from '../../scripts/imports/read-imports';

const REPO = resolve(import.meta.dirname, '../../..');

/** A file-level import between two server files, written as short as the tests need. */
const imp = (from: string, to: string) => ({ from: `server/src/${from}`, to: `server/src/${to}` });

const check = (imports: { from: string; to: string }[]) => checkRules(ruleBreaches(folderGraph(imports)));

describe('the server imports one way, folder by folder', () => {
  it('breaks no rule: no loop, no import up the layers or the module order, no module importing federation or notifications', () => {
    const started = performance.now();
    const findings = ruleBreaches(folderGraph(readServerImports(REPO)));
    const result = checkRules(findings);
    expect(result.message).toBe('');
    expect(result.ok).toBe(true);
    expect(breachLines(findings)).toEqual([]);
    // It runs with every `npm test`, so it must stay cheap.
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('places each file in its folder, a module by its name, the wiring and the entry points at the root', () => {
    expect(placeOf('server/src/lib/egress/egress.ts')).toBe('lib');
    expect(placeOf('server/src/db/migrations/0001_init.ts')).toBe('db');
    expect(placeOf('server/src/modules/posts/posts.service.ts')).toBe('modules/posts');
    expect(placeOf('server/src/config.ts')).toBe('config');
    expect(placeOf('server/src/policy/who-sees.ts')).toBe('policy');
    expect(placeOf('core/api/posts.ts')).toBe('core');
    expect(placeOf('server/src/app.ts')).toBe('root');
    expect(placeOf('server/src/jobs.ts')).toBe('root');
    expect(placeOf('server/src/cli/admin.ts')).toBe('root');
    expect(placeOf('server/src/helpers/x.ts')).toBeUndefined();
    expect(placeOf('src/lib/db/db.ts')).toBeUndefined();
  });
});

describe('a planted import against the rules fails the check and says where', () => {
  const base = [
    imp('modules/y/y.service.ts', 'lib/x.ts'),
    imp('modules/y/y.service.ts', 'db/helpers.ts'),
    imp('plugins/auth.ts', 'lib/x.ts'),
  ];

  it('passes the same folders without the planted import', () => {
    expect(check(base)).toEqual({ ok: true, message: '' });
  });

  it('names a shared folder importing a module, and the cycle it closes with one file import per step', () => {
    const result = check([...base, imp('lib/x.ts', 'modules/y/y.service.ts')]);
    expect(result.ok).toBe(false);
    expect(result.message).toContain('layers: lib -> modules/y');
    expect(result.message).toContain('server/src/lib/x.ts imports server/src/modules/y/y.service.ts');
    expect(result.message).toMatch(
      /cycle: lib -> modules\/y -> lib\n\s+lib -> modules\/y: server\/src\/lib\/x\.ts imports server\/src\/modules\/y\/y\.service\.ts\n\s+modules\/y -> lib: server\/src\/modules\/y\/y\.service\.ts imports server\/src\/lib\/x\.ts/,
    );
  });

  it('names a cycle of modules in order, each step with an example file import', () => {
    const result = check([
      imp('modules/a/a.ts', 'modules/b/b.ts'),
      imp('modules/b/b.ts', 'modules/c/c.ts'),
      imp('modules/c/c.ts', 'modules/a/a.ts'),
      imp('modules/c/other.ts', 'modules/d/d.ts'),
    ]);
    expect(result.ok).toBe(false);
    expect(result.message).toContain('Places importing one another in a loop:\n  modules/a, modules/b, modules/c\n');
    expect(result.message).toContain('cycles: modules/a -> modules/b');
    expect(result.message).toContain('cycles: modules/c -> modules/a');
    expect(result.message).toContain('cycle: modules/a -> modules/b -> modules/c -> modules/a');
    expect(result.message).toContain('modules/c -> modules/a: server/src/modules/c/c.ts imports server/src/modules/a/a.ts');
    // c -> d is one way: it is no part of the cycle.
    expect(result.message).not.toContain('modules/c -> modules/d');
  });

  it('lets only the composition root import federation and notifications', () => {
    const result = check([
      imp('app.ts', 'modules/federation/federation.plugin.ts'),
      imp('routes.ts', 'modules/notifications/notifications.routes.ts'),
      imp('jobs.ts', 'modules/notifications/notifications.fanout.ts'),
      imp('modules/posts/posts.service.ts', 'modules/notifications/events.ts'),
      imp('modules/federation/inbox.ts', 'modules/notifications/events.ts'),
    ]);
    expect(result.message).toContain('federation-notifications: modules/posts -> modules/notifications');
    expect(result.message).toContain('federation-notifications: modules/federation -> modules/notifications');
    expect(result.message).not.toContain('root ->');
  });

  it('refuses an import of the root from anywhere else, so the wiring cannot carry a module\'s imports', () => {
    const result = check([imp('modules/jobs/maintenance.ts', 'jobs.ts')]);
    expect(result.message).toContain('layers: modules/jobs -> root');
  });

  it('refuses a file in a folder that has no place in the layers', () => {
    const result = check([imp('helpers/x.ts', 'lib/x.ts')]);
    expect(result.ok).toBe(false);
    expect(result.message).toContain('server/src/helpers/x.ts');
  });
});

describe('the modules keep their order', () => {
  it('refuses a module importing one above it, even with no loop, and names the rule', () => {
    const result = check([imp('modules/auth/auth.service.ts', 'modules/posts/posts.service.ts')]);
    expect(result.ok).toBe(false);
    expect(result.message).toContain('module-order: modules/auth -> modules/posts');
    expect(result.message).toContain('server/src/modules/auth/auth.service.ts imports server/src/modules/posts/posts.service.ts');
    expect(result.message).not.toContain('Places importing one another in a loop');
  });

  it('passes a module importing one below it', () => {
    expect(check([imp('modules/posts/posts.service.ts', 'modules/auth/auth.service.ts')])).toEqual({ ok: true, message: '' });
  });

  it('knows every module of server/src/modules', () => {
    const modules = new Set(readServerImports(REPO).flatMap(({ from, to }) => [placeOf(from), placeOf(to)]).filter((place) => place?.startsWith('modules/')));
    expect([...modules].filter((module) => module !== undefined && !MODULE_ORDER.includes(module))).toEqual([]);
  });
});

describe('reading the imports with TypeScript', () => {
  const root = mkdtempSync(join(tmpdir(), 'kruh-imports-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };

  it('follows relative imports written with .js, the #core/* alias, type imports and re-exports, and skips packages and data', () => {
    write('package.json', JSON.stringify({ type: 'module', imports: { '#core/*': './core/*.ts' } }));
    write('tsconfig.base.json', readFileSync(join(REPO, 'tsconfig.base.json'), 'utf8'));
    write('server/tsconfig.json', JSON.stringify({ extends: '../tsconfig.base.json', include: ['src', '../core'] }));
    write('core/limits.ts', 'export const LIMIT = 1;\n');
    write('locales/en/x.json', '{}\n');
    write('server/src/lib/x.ts', "import { y } from '../modules/y/y.service.js';\nexport const x = y;\n");
    write(
      'server/src/modules/y/y.service.ts',
      [
        "import type { X } from '../../lib/x.js';",
        "import { LIMIT } from '#core/limits';",
        "import { Kysely } from 'kysely';",
        "import en from '../../../../locales/en/x.json' with { type: 'json' };",
        "export { z } from './z.js';",
        'export const y = LIMIT;',
      ].join('\n'),
    );
    write('server/src/modules/y/z.ts', 'export const z = 1;\n');
    write('server/src/modules/y/y.test.ts', "import { x } from '../../lib/x.js';\n");

    expect(readServerImports(root).sort((a, b) => `${a.from}${a.to}`.localeCompare(`${b.from}${b.to}`))).toEqual([
      { from: 'server/src/lib/x.ts', to: 'server/src/modules/y/y.service.ts' },
      { from: 'server/src/modules/y/y.service.ts', to: 'core/limits.ts' },
      { from: 'server/src/modules/y/y.service.ts', to: 'server/src/lib/x.ts' },
      { from: 'server/src/modules/y/y.service.ts', to: 'server/src/modules/y/z.ts' },
    ]);
  });

  it('refuses an import it cannot resolve, which would otherwise slip past the rules', () => {
    write('server/src/lib/broken.ts', "import { gone } from './gone.js';\n");
    expect(() => readServerImports(root)).toThrow(/server\/src\/lib\/broken\.ts.*\.\/gone\.js/);
    rmSync(join(root, 'server/src/lib/broken.ts'));
  });
});
