import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { type TestUser, createFollow, createPost, createUser } from '../helpers/fixtures';
import { useInstance } from '../helpers/kruh-instance';
import { REDIRECT, appSession, codeIn } from './oauth-helpers';

const run = promisify(execFile);
const PYTHON = '/usr/bin/python3';
const TOOT = '/usr/bin/toot';

/** Debian's Python with Mastodon.py, and toot: CI installs both (.ci/run); a machine without them skips. */
function hasMastodonPy(): boolean {
  if (!existsSync(PYTHON)) return false;
  try {
    execFileSync(PYTHON, ['-c', 'import mastodon'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
const missing = [hasMastodonPy() ? null : `${PYTHON} with Mastodon.py (python3-mastodon)`, existsSync(TOOT) ? null : `${TOOT} (toot)`].filter(Boolean);
const script = join(__dirname, 'python', 'mastodon_py_session.py');

/**
 * Two more apps from Debian against a running instance over HTTP: Mastodon.py, the library many
 * bots are written with, through sign-in and an app's everyday calls; and toot, a command-line app,
 * posting and reading.
 */
describe.skipIf(missing.length > 0)(`client API through Mastodon.py and toot${missing.length ? ` (skipped: ${missing.join(', ')} not installed)` : ''}`, () => {
  const instance = useInstance();
  const folder = mkdtempSync(join(tmpdir(), 'kruh-python-clients-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  /** The person's approval, as the consent screen sends it: Kruh's own call, with the person's session. */
  async function approve(user: TestUser, clientId: string, scope: string): Promise<string> {
    const res = await fetch(`${instance.origin}/api/oauth/authorize`, {
      method: 'POST',
      headers: { ...user.auth, 'content-type': 'application/json' },
      body: JSON.stringify({ response_type: 'code', client_id: clientId, redirect_uri: REDIRECT, scope, approve: true }),
    });
    expect(res.status).toBe(200);
    return codeIn(((await res.json()) as { redirect: string }).redirect).code!;
  }

  const python = async (...args: string[]) => JSON.parse((await run(PYTHON, [script, ...args], { timeout: 60_000 })).stdout) as Record<string, unknown>;

  it('Mastodon.py signs in with a code, posts with a warning and a picture, answers, favourites, follows, reads, searches, pages and deletes', async () => {
    const me = await createUser(instance.app);
    const other = await createUser(instance.app, { username: `pyother${Date.now()}` });
    const base = Date.now() - 60_000;
    const posts = [];
    for (let i = 0; i < 3; i++) posts.push((await createPost(instance.app, other, { text: `python paging ${i}`, createdAt: base + i })).id);
    // The other person follows me through an app of theirs, which notifies me.
    const theirs = await appSession(instance.app, other, 'read write follow');
    const followed = await fetch(`${instance.origin}/api/v1/accounts/${me.id}/follow`, { method: 'POST', headers: { authorization: `Bearer ${theirs.token}` } });
    expect(followed.status).toBe(200);
    await instance.runJobs();

    const registered = await python('app', instance.origin, REDIRECT);
    const code = await approve(me, registered.client_id as string, 'read write follow');
    const png = join(folder, 'square.png');
    writeFileSync(png, await sharp({ create: { width: 30, height: 20, channels: 3, background: '#48c' } }).png().toBuffer());
    const out = await python(
      'session',
      JSON.stringify({ ...registered, origin: instance.origin, redirect: REDIRECT, code, png, other_id: other.id, other_status: posts[2], query: other.username }),
    );

    expect(out.token).toBe(true);
    // It found the instance's version (asking with a trailing slash), so it makes the calls of that version.
    expect(out.version).toEqual([true, 4, 3]);
    expect(out.me).toEqual({ id: me.id, username: me.username, acct: me.username });
    expect(out.warned).toMatchObject({ spoiler_text: 'a warning' });
    expect(out.media).toMatchObject({ type: 'image', description: 'A small square' });
    const pictured = out.pictured as { id: string; media: string[][] };
    // Sent as a form with `media_ids[]`.
    expect(pictured.media).toEqual([['image', 'A small square']]);
    expect(out.reply).toMatchObject({ in_reply_to_id: pictured.id });
    expect(out.favourited).toEqual({ id: posts[2], favourited: true });
    expect(out.follow).toEqual({ id: other.id, following: true });
    const reply = out.reply as { id: string };
    // Home holds my own posts (a comment is no post of it) and those of the people followed (just followed through the library).
    expect(out.home).toEqual([pictured.id, (out.warned as { id: string }).id, ...[...posts].reverse()]);
    expect(reply.id).toMatch(/^c/);
    expect(out.notifications).toEqual([{ type: 'follow', account: other.id }]);
    // Asked with its flags written `1` and `0`.
    expect((out.search as { accounts: string[] }).accounts).toEqual([other.id]);
    expect(out.pages).toEqual([[posts[2], posts[1]], [posts[0]]]);
    expect(out.deleted).toEqual({ id: (out.warned as { id: string }).id });
    expect(out.gone).toBe('MastodonNotFoundError');
  });

  it('toot, signed in by its configuration, posts, reads its home and the public timeline, and says who it is', async () => {
    const me = await createUser(instance.app, { username: `tooter${Date.now()}` });
    const other = await createUser(instance.app);
    const theirs = await createPost(instance.app, other, { text: 'a post toot reads on the public timeline' });
    await createPost(instance.app, await createUser(instance.app), { text: 'a stranger toot reads only in public' });
    await createFollow(instance.app, me, other);
    const { client, token } = await appSession(instance.app, me, 'read write follow');
    // toot keeps its apps and people in one file; an instance's address is given with its scheme, so plain http works.
    const home = join(folder, 'toot-config');
    mkdirSync(join(home, 'toot'), { recursive: true });
    const user = `${me.username}@${instance.host}`;
    writeFileSync(
      join(home, 'toot', 'config.json'),
      JSON.stringify({
        apps: { [instance.host]: { instance: instance.host, base_url: instance.origin, client_id: client.client_id, client_secret: client.client_secret } },
        users: { [user]: { instance: instance.host, username: me.username, access_token: token } },
        active_user: user,
      }),
    );
    const toot = async (...args: string[]) =>
      (await run(TOOT, args, { timeout: 60_000, env: { ...process.env, XDG_CONFIG_HOME: home, NO_COLOR: '1', COLUMNS: '200' } })).stdout;

    const posted = await toot('post', 'Hello from toot #commandline');
    const url = /Toot posted: (\S+)/u.exec(posted)?.[1];
    expect(url).toEqual(expect.stringContaining(instance.origin));
    const mine = await instance.app.db.selectFrom('posts').select(['id', 'text']).where('author_id', '=', me.id).execute();
    expect(mine.map((p) => p.text)).toEqual(['Hello from toot #commandline']);

    const whoami = await toot('whoami');
    expect(whoami).toContain(`@${me.username}`);
    expect(whoami).toContain(me.id);

    const publicTimeline = await toot('timeline', '--public');
    expect(publicTimeline).toContain('Hello from toot #commandline');
    expect(publicTimeline).toContain('a post toot reads on the public timeline');
    expect(publicTimeline).toContain('a stranger toot reads only in public');
    expect(publicTimeline).toContain(theirs.id);
    // Home holds the people followed and my own posts: the other person's post and the one just written.
    const homeTimeline = await toot('timeline');
    expect(homeTimeline).toContain(theirs.id);
    expect(homeTimeline).toContain('Hello from toot');
    expect(homeTimeline).not.toContain('a stranger toot reads only in public');
  });
});
