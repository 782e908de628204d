import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INSTANCE_LIMITS } from '#core/instance-settings';
import { runAdminCommand } from '../../src/modules/reports/admin';
import { countRows, freshAddress } from '../auth/support';
import { expectError } from '../helpers/expect';
import { type TestUser, call, useUsers } from '../helpers/fixtures';
import { useTestApp } from '../helpers/test-app';

const ORIGIN = 'https://kruh.example';

const SETTINGS = {
  name: '  Kruh  of   friends ',
  description: 'A small\ninstance for friends',
  about: '\n  We meet on Thursdays.\n\nBring tea.  \n',
  rules: [' Be kind. ', '   ', 'No spam,\nno ads.'],
  contact: ' Admin@Kruh.Example ',
};
const STORED = {
  name: 'Kruh of friends',
  description: 'A small instance for friends',
  about: 'We meet on Thursdays.\n\nBring tea.',
  rules: ['Be kind.', 'No spam, no ads.'],
  contact: 'admin@kruh.example',
};

describe('instance settings', () => {
  const t = useTestApp({ PUBLIC_URL: ORIGIN });
  const { mod, member } = useUsers(t, 'mod', 'member');
  const read = () => t.app.inject({ method: 'GET', url: '/api/instance' });
  const save = (user: TestUser | null, payload: Record<string, unknown>) => call(t.app, user, { method: 'PUT', url: '/api/instance', payload });
  const stored = () => t.app.db.selectFrom('instance_settings').selectAll().execute();

  beforeAll(async () => {
    await runAdminCommand(t.app.db, { grant: mod.username });
  });

  it('answers anyone, visitors too, the host as the name and nothing else before the first save', async () => {
    const res = await read();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ name: 'kruh.example', description: '', about: '', rules: [], contact: '' });
  });

  it('is set by an instance moderator, normalised, and read back by anyone', async () => {
    const res = await save(mod, SETTINGS);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'info/instance_updated', instance: STORED });
    expect((await read()).json()).toEqual(STORED);
    expect(await stored()).toEqual([expect.objectContaining({ updated_by: mod.id })]);
  });

  it('refuses everyone else, changing nothing', async () => {
    const before = await stored();
    expectError(await save(member, { ...STORED, name: 'Mine now' }), 403, 'moderators_only');
    expectError(await save(null, { ...STORED, name: 'Mine now' }), 401, 'no_token');
    expect(await stored()).toEqual(before);
  });

  it.each([
    [{ name: 'n'.repeat(INSTANCE_LIMITS.nameMax + 1) }, 'max_instance_name_length'],
    [{ description: 'd'.repeat(INSTANCE_LIMITS.descriptionMax + 1) }, 'max_instance_description_length'],
    [{ about: 'a'.repeat(INSTANCE_LIMITS.aboutMax + 1) }, 'max_instance_about_length'],
    [{ about: 'line\n'.repeat(INSTANCE_LIMITS.aboutMaxLines + 1) }, 'max_instance_about_length'],
    [{ rules: Array.from({ length: INSTANCE_LIMITS.rulesMax + 1 }, (_, i) => `Rule ${i}`) }, 'max_instance_rules'],
    [{ rules: ['r'.repeat(INSTANCE_LIMITS.ruleMax + 1)] }, 'max_instance_rule_length'],
    [{ contact: 'not an address' }, 'invalid_email'],
    [{ rules: [{ text: 'Be kind' }] }, 'invalid_settings'],
  ])('refuses %j with %s, changing nothing', async (change, key) => {
    const before = await stored();
    expectError(await save(mod, { ...STORED, ...change }), 400, key);
    expect(await stored()).toEqual(before);
  });

  it('takes the limits themselves, and an empty name gives the host back', async () => {
    const full = {
      name: 'n'.repeat(INSTANCE_LIMITS.nameMax),
      description: 'd'.repeat(INSTANCE_LIMITS.descriptionMax),
      about: 'a'.repeat(INSTANCE_LIMITS.aboutMax),
      rules: Array.from({ length: INSTANCE_LIMITS.rulesMax }, () => 'r'.repeat(INSTANCE_LIMITS.ruleMax)),
      contact: '',
    };
    expect((await save(mod, full)).json().instance).toEqual(full);
    expect((await save(mod, { ...STORED, name: '   ' })).json().instance.name).toBe('kruh.example');
    await save(mod, STORED);
  });
});

describe('the rules at sign-up', () => {
  const t = useTestApp();
  const { mod } = useUsers(t, 'mod');
  const signup = (payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: '/api/auth/signup', payload, remoteAddress: freshAddress() });
  const person = (name: string) => ({ username: name, email: `${name}@example.test`, password: 'pa$$w0rd' });
  const setRules = (rules: string[]) =>
    call(t.app, mod, { method: 'PUT', url: '/api/instance', payload: { name: '', description: '', about: '', rules, contact: '' } });

  beforeAll(async () => {
    await runAdminCommand(t.app.db, { grant: mod.username });
  });

  it('asks nothing while the instance has no rules', async () => {
    expect((await signup(person('norules'))).statusCode).toBe(201);
  });

  it('refuses a sign-up that did not accept the rules while there are some, storing nothing', async () => {
    expect((await setRules(['Be kind.'])).statusCode).toBe(200);
    for (const acceptRules of [undefined, false]) {
      const before = await countRows(t.app, 'users');
      expectError(await signup({ ...person('refused'), ...(acceptRules === undefined ? {} : { acceptRules }) }), 400, 'rules_not_accepted');
      expect(await countRows(t.app, 'users')).toBe(before);
    }
    expect((await signup({ ...person('accepted'), acceptRules: true })).statusCode).toBe(201);
  });

  it('never makes the first sign-up a moderator: the operator names one', async () => {
    const fresh = await signup({ ...person('firstone'), acceptRules: true });
    expect(fresh.statusCode).toBe(201);
    const roles = await t.app.db.selectFrom('users').select(['username', 'role']).where('username', 'in', ['norules', 'accepted', 'firstone']).execute();
    expect(roles.map((row) => row.role)).toEqual(['user', 'user', 'user']);
  });
});

describe('NodeInfo metadata', () => {
  const webDir = mkdtempSync(join(tmpdir(), 'kruh-web-'));
  writeFileSync(join(webDir, 'index.html'), '<!doctype html><html><head><title>Kruh</title></head><body><div id="root"></div></body></html>');
  afterAll(() => rmSync(webDir, { recursive: true, force: true }));
  const t = useTestApp({ FEDERATION: 'true', PUBLIC_URL: ORIGIN, WEB_DIR: webDir });
  const { mod } = useUsers(t, 'mod');
  const metadata = async () => ((await t.app.inject({ method: 'GET', url: '/nodeinfo/2.1' })).json() as { metadata: Record<string, unknown> }).metadata;

  it("names the instance as its moderators set it, its host before that", async () => {
    expect(await metadata()).toMatchObject({ nodeName: 'kruh.example', nodeDescription: '', nodeAbout: '', rules: [], maintainer: { email: '' } });
    await runAdminCommand(t.app.db, { grant: mod.username });
    expect((await call(t.app, mod, { method: 'PUT', url: '/api/instance', payload: SETTINGS })).statusCode).toBe(200);
    expect(await metadata()).toMatchObject({
      nodeName: STORED.name,
      nodeDescription: STORED.description,
      nodeAbout: STORED.about,
      rules: STORED.rules,
      maintainer: { email: STORED.contact },
    });
  });
});
