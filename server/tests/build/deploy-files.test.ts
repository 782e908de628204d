import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { LIMITS } from '#core/limits';
import { REPO } from '../helpers/compiled-build';
import { TEST_DB } from '../helpers/test-app';
import { packageScripts } from './install';
import { proxyBodyLimits } from './proxy-configs';

const run = promisify(execFile);
const read = (path: string) => readFileSync(join(REPO, path), 'utf8');

interface Service {
  build?: string;
  image?: string;
  command?: string[];
  environment?: Record<string, string>;
  volumes?: string[];
  ports?: string[];
  depends_on?: Record<string, { condition: string }> | string[];
  healthcheck?: { test: string[] };
}

/** The Dockerfile's ENV values. */
const imageEnv = (): Record<string, string> =>
  Object.fromEntries([...read('Dockerfile').matchAll(/^ENV (\w+)=(\S+)$/gm)].map((match) => [match[1]!, match[2]!]));

/** The settings .env.example names, set or commented out: the server's, or (`containers`) those compose.yaml asks for. */
function documented(containers: boolean): Set<string> {
  const sections = read('.env.example').split(/^(?=## )/m).filter((section) => section.startsWith('## Containers') === containers);
  return new Set([...sections.join('').matchAll(/^#? ?([A-Z][A-Z0-9_]+)=/gm)].map((match) => match[1]!));
}

/** A `${NAME:?message}` of compose, read as the value `<NAME>`, so that wiring made of them compares. */
const interpolated = (value: string) => value.replace(/\$\{(\w+)[^}]*\}/g, '<$1>');

/** A systemd unit's `Key=value` lines (the last of a key wins, as for systemd). */
function unitKeys(text: string): Record<string, string> {
  return Object.fromEntries([...text.matchAll(/^(\w+)=(.*)$/gm)].map((match) => [match[1]!, match[2]!.trim()]));
}

describe.skipIf(TEST_DB !== 'sqlite')('the deployment files', () => {
  it('compose: Kruh from this Dockerfile, on PostgreSQL, with media in Garage, behind Caddy', () => {
    const compose = parse(read('compose.yaml')) as { services: Record<string, Service>; volumes: Record<string, unknown> };
    const { kruh, postgres, garage, caddy } = compose.services;
    expect(Object.keys(compose.services).sort()).toEqual(['caddy', 'garage', 'kruh', 'postgres']);
    expect(kruh!.build).toBe('.');
    const env = Object.fromEntries(Object.entries(kruh!.environment!).map(([name, value]) => [name, interpolated(value)]));

    const database = new URL(env.DATABASE_URL!.replace(/<(\w+)>/g, '$1'));
    expect([database.hostname, database.port]).toEqual(['postgres', '5432']);
    expect(database.username).toBe(postgres!.environment!.POSTGRES_USER);
    expect(database.pathname).toBe(`/${postgres!.environment!.POSTGRES_DB}`);
    expect(`<${database.password}>`).toBe(interpolated(postgres!.environment!.POSTGRES_PASSWORD!));

    const garageToml = read('deploy/garage.toml');
    const s3Port = /^api_bind_addr = "\[::\]:(\d+)"$/m.exec(garageToml)?.[1];
    expect(env.MEDIA_STORAGE).toBe('s3');
    expect(env.S3_ENDPOINT).toBe(`http://garage:${s3Port}`);
    expect(env.S3_REGION).toBe(/^s3_region = "(\w+)"$/m.exec(garageToml)?.[1]);
    expect(env.S3_BUCKET).toBe(garage!.environment!.GARAGE_DEFAULT_BUCKET);
    expect(env.S3_ACCESS_KEY_ID).toBe(interpolated(garage!.environment!.GARAGE_DEFAULT_ACCESS_KEY!));
    expect(env.S3_SECRET_ACCESS_KEY).toBe(interpolated(garage!.environment!.GARAGE_DEFAULT_SECRET_KEY!));
    expect(env.S3_FORCE_PATH_STYLE).toBe('true');
    // The bucket and its key are made as Garage starts, from the settings above.
    expect(garage!.command).toEqual(expect.arrayContaining(['--single-node', '--default-bucket']));
    expect(garage!.volumes).toContain('./deploy/garage.toml:/etc/garage.toml:ro');

    // Kruh waits for what it needs, and what it waits for says when it is ready.
    for (const [name, { condition }] of Object.entries(kruh!.depends_on as Record<string, { condition: string }>)) {
      expect(condition, name).toBe('service_healthy');
      expect(compose.services[name]!.healthcheck, name).toBeDefined();
    }
    // The data folder of the image is a volume, and Caddy alone is reachable from outside.
    expect(kruh!.volumes!.map((volume) => volume.split(':')[1])).toContain(imageEnv().DATA_DIR);
    expect(kruh!.ports).toBeUndefined();
    expect(env.TRUST_PROXY).toBe('true');
    expect(caddy!.ports).toEqual(expect.arrayContaining(['80:80', '443:443']));
    expect(caddy!.volumes).toContain('./deploy/Caddyfile:/etc/caddy/Caddyfile:ro');
    expect(caddy!.environment!.KRUH_UPSTREAMS).toBe(`kruh:${imageEnv().PORT}`);
    expect(interpolated(caddy!.environment!.KRUH_DOMAIN!)).toBe('<KRUH_DOMAIN>');
    expect(env.PUBLIC_URL).toBe('https://<KRUH_DOMAIN>');

    // Every setting given to Kruh is one of its own, and what compose asks of the operator is what .env.example lists for it.
    const settings = documented(false);
    for (const name of Object.keys(env)) expect(settings.has(name), `${name} in .env.example`).toBe(true);
    const asked = new Set([...read('compose.yaml').matchAll(/\$\{(\w+)/g)].map((match) => match[1]!));
    expect([...asked].sort()).toEqual([...documented(true)].sort());
    for (const service of Object.values(compose.services)) {
      for (const volume of service.volumes ?? []) {
        const source = volume.split(':')[0]!;
        if (source.startsWith('./')) expect(existsSync(join(REPO, source)), source).toBe(true);
        else expect(compose.volumes, source).toHaveProperty(source);
      }
    }
  });

  it('systemd: runs what `npm run serve` runs, in the install folder with its .env, hardened', async () => {
    const text = read('deploy/kruh.service');
    const unit = unitKeys(text);
    const [program = '', ...args] = unit.ExecStart!.split(/\s+/);
    const [serveProgram, ...serveArgs] = packageScripts().serve!.split(' ');
    expect(program.startsWith('/')).toBe(true);
    expect(basename(program)).toBe(serveProgram);
    expect(args).toEqual(serveArgs);
    expect(unit.EnvironmentFile).toBe(`${unit.WorkingDirectory}/.env`);
    // DATA_DIR's default, ./data, is the one folder it may write.
    expect(unit.ReadWritePaths).toBe(`${unit.WorkingDirectory}/data`);
    expect(unit.User).not.toBe('root');
    expect(unit).toMatchObject({ ProtectSystem: 'strict', ProtectHome: 'yes', PrivateTmp: 'yes', NoNewPrivileges: 'yes', CapabilityBoundingSet: '' });

    // systemd's own reading of the file, where the machine has it: any key it does not know is a mistake.
    const analyze = ['/usr/bin/systemd-analyze', '/bin/systemd-analyze'].find((path) => existsSync(path));
    if (!analyze) return;
    const folder = mkdtempSync(join(tmpdir(), 'kruh-unit-'));
    try {
      const copy = join(folder, 'kruh.service');
      writeFileSync(copy, text.replace(`ExecStart=${program}`, `ExecStart=${process.execPath}`));
      const result = await run(analyze, ['verify', copy]).catch((err: { stdout: string; stderr: string }) => err);
      expect(`${result.stdout}${result.stderr}`).not.toMatch(/Unknown|unknown|not executable|Failed|Invalid/);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('proxies: each lets the largest upload through, whatever the form around it', () => {
    const limits = proxyBodyLimits();
    expect(Object.keys(limits).sort()).toEqual(['caddy', 'nginx']);
    for (const [name, limit] of Object.entries(limits)) expect(limit, name).toBeGreaterThanOrEqual(LIMITS.imageMaxBytes + 1024 * 1024);
  });
});
