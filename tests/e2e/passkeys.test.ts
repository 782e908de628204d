import { describe, expect, it } from 'vitest';
import { JOURNEY_VIEWPORT, text } from './support/journeys';
import { createVerifiedUser } from './support/server';
import { useE2eSuite } from './support/suite';

/**
 * A passkey from start to end in Chromium, with a virtual authenticator standing in for the
 * phone's or laptop's: log in with the password, add a passkey on the credentials page, log out,
 * and sign in again with the passkey alone. Browsers refuse passkeys on a page opened by IP
 * address, so the app is opened at localhost, the name a developer's browser uses too.
 */
describe('passkeys', () => {
  const e2e = useE2eSuite();

  it('adds a passkey after a password login, then signs in with it alone', async () => {
    const { server } = e2e;
    const user = await createVerifiedUser(server);
    const origin = server.baseUrl.replace('127.0.0.1', 'localhost');

    const { context } = await e2e.open({ viewport: JOURNEY_VIEWPORT });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });

    await page.goto(`${origin}/login`);
    const main = page.getByRole('main');
    await main.getByLabel(text('en', 'auth:login.identifier'), { exact: true }).fill(user.username);
    await main.getByLabel(text('en', 'auth:login.password'), { exact: true }).fill(user.password);
    await main.getByRole('button', { name: text('en', 'auth:login.submit'), exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/feed');

    await page.goto(`${origin}/account/credentials`);
    const passkeys = main.getByRole('region', { name: text('en', 'account:credentials.passkeys.title') });
    await passkeys.getByText(text('en', 'account:credentials.passkeys.none')).waitFor();
    await passkeys.getByLabel(text('en', 'account:credentials.passkeys.name')).fill('This laptop');
    await passkeys.getByRole('button', { name: text('en', 'account:credentials.passkeys.add'), exact: true }).click();
    await passkeys.getByRole('status').filter({ hasText: text('en', 'account:credentials.passkeys.added') }).waitFor();
    await passkeys.getByRole('button', { name: text('en', 'account:credentials.passkeys.removeNamed', { name: 'This laptop' }) }).waitFor();

    // The authenticator keeps one discoverable key, for this site and this account.
    const held = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(held.credentials).toHaveLength(1);
    expect(held.credentials[0]).toMatchObject({ isResidentCredential: true, rpId: 'localhost', userHandle: Buffer.from(user.id).toString('base64') });
    const stored = await server.app.db.selectFrom('passkeys').selectAll().where('user_id', '=', user.id).execute();
    expect(stored.map((row) => ({ name: row.name, credential: row.credential_id, lastUsed: row.last_used_at }))).toEqual([
      { name: 'This laptop', credential: Buffer.from(held.credentials[0]!.credentialId, 'base64').toString('base64url'), lastUsed: null },
    ]);

    await page.goto(`${origin}/account`);
    await main.getByRole('button', { name: text('en', 'account:logout.button'), exact: true }).click();
    await expect.poll(() => page.evaluate(() => localStorage.getItem('token'))).toBeNull();

    await page.goto(`${origin}/login`);
    await main.getByRole('button', { name: text('en', 'auth:passkey.signIn'), exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/feed');
    const nav = page.getByRole('navigation', { name: text('en', 'common:nav.label') });
    await nav.getByRole('link', { name: text('en', 'common:nav.newPost'), exact: true }).waitFor();
    expect(await page.evaluate(() => ({ username: localStorage.getItem('username'), id: localStorage.getItem('id') }))).toEqual({ username: user.username, id: user.id });

    // The sign-in was counted: the server keeps the authenticator's counter and the time.
    const used = await server.app.db.selectFrom('passkeys').selectAll().where('user_id', '=', user.id).executeTakeFirstOrThrow();
    const [after] = (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials;
    expect(Number(used.counter)).toBe(after!.signCount);
    expect(used.last_used_at).not.toBeNull();
    expect(e2e.journey.log.pageErrors).toEqual([]);
  });
});
