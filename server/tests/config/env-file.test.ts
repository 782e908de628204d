import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RATE_VARIABLES, loadDotEnv } from '../../src/config';

const ROOT = join(import.meta.dirname, '../../..');

/** Every variable config.ts reads: `env.NAME`, and the names it hands to its parsers ('NAME'). */
function settingsRead(): Set<string> {
  const source = readFileSync(join(ROOT, 'server/src/config.ts'), 'utf8');
  const names = [...source.matchAll(/\benv\.([A-Z][A-Z0-9_]*)/g), ...source.matchAll(/\benv, '([A-Z][A-Z0-9_]*)'/g)].map((m) => m[1]!);
  return new Set([...names, ...Object.values(RATE_VARIABLES)]);
}

/** The settings .env.example names, set or commented out (`# NAME=value`), but compose.yaml's own. */
function settingsListed(): Set<string> {
  const text = readFileSync(join(ROOT, '.env.example'), 'utf8')
    .split(/^(?=## )/m)
    .filter((section) => !section.startsWith('## Containers'))
    .join('');
  return new Set([...text.matchAll(/^#? ?([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]!));
}

describe('.env.example', () => {
  it('lists every setting the server reads, and nothing it does not', () => {
    const read = settingsRead();
    expect(read.size).toBeGreaterThan(30);
    const listed = settingsListed();
    expect([...read].filter((name) => !listed.has(name)).sort()).toEqual([]);
    expect([...listed].filter((name) => !read.has(name)).sort()).toEqual([]);
  });

  it('gives each setting a comment line of its own just above it', () => {
    const lines = readFileSync(join(ROOT, '.env.example'), 'utf8').split('\n');
    lines.forEach((line, i) => {
      if (!/^#? ?[A-Z][A-Z0-9_]*=/.test(line)) return;
      const above = lines[i - 1] ?? '';
      expect(above, line).toMatch(/^# \S/);
      expect(above, line).not.toMatch(/^#? ?[A-Z][A-Z0-9_]*=/);
    });
  });

  it('changes nothing when copied to .env as it is: every setting is commented out', () => {
    const text = readFileSync(join(ROOT, '.env.example'), 'utf8');
    expect(text).not.toMatch(/^[A-Z][A-Z0-9_]*=/m);
  });
});

describe('loading .env', () => {
  const folders: string[] = [];
  afterEach(() => {
    for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
    delete process.env.KRUH_ENV_TEST_A;
    delete process.env.KRUH_ENV_TEST_B;
  });

  it('fills in what the environment does not set, and leaves what it sets', () => {
    const folder = mkdtempSync(join(tmpdir(), 'kruh-env-'));
    folders.push(folder);
    const file = join(folder, '.env');
    writeFileSync(file, 'KRUH_ENV_TEST_A=from-file\nKRUH_ENV_TEST_B=from-file\n');
    process.env.KRUH_ENV_TEST_B = 'from-environment';
    expect(loadDotEnv(file)).toBe(true);
    expect(process.env.KRUH_ENV_TEST_A).toBe('from-file');
    expect(process.env.KRUH_ENV_TEST_B).toBe('from-environment');
  });

  it('does nothing without the file', () => {
    const missing = join(tmpdir(), 'kruh-env-none', '.env');
    expect(existsSync(missing)).toBe(false);
    expect(loadDotEnv(missing)).toBe(false);
  });
});
