import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { JOURNEY_VIEWPORT, text } from './support/journeys';
import { createVerifiedUser } from './support/server';
import { useE2eSuite } from './support/suite';

/** Where the app waits for its person to come back (answered by the test, as the app would). */
const APP_ADDRESS = 'https://pocket.example/signed-in';

/**
 * A fediverse app sends its person to sign in here: the consent screen asks a visitor to sign in
 * first, keeps the app's request across it, and an approval lands on the app's address with a
 * code the app can exchange for a token.
 */
describe('a fediverse app signing in', () => {
  const e2e = useE2eSuite();

  it('signs in first, allows the app and lands on its address with a code that works', async () => {
    const { server } = e2e;
    const user = await createVerifiedUser(server);
    const registered = await server.app.inject({
      method: 'POST',
      url: '/api/v1/apps',
      payload: { client_name: 'Pocket', redirect_uris: APP_ADDRESS, scopes: 'read write' },
    });
    expect(registered.statusCode).toBe(200);
    const client = registered.json() as { client_id: string };
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const request = new URLSearchParams({
      client_id: client.client_id,
      redirect_uri: APP_ADDRESS,
      scope: 'read',
      response_type: 'code',
      state: 'kept-state',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });

    const { context } = await e2e.open({ viewport: JOURNEY_VIEWPORT });
    const page = await context.newPage();
    await page.route('https://pocket.example/**', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<p>Back in Pocket</p>' }));
    await page.goto(`${server.baseUrl}/oauth/authorize?${request.toString()}`);

    const main = page.getByRole('main');
    await main.getByLabel(text('en', 'auth:login.identifier'), { exact: true }).fill(user.username);
    await main.getByLabel(text('en', 'auth:login.password'), { exact: true }).fill(user.password);
    await main.getByRole('button', { name: text('en', 'auth:login.submit'), exact: true }).click();

    await main.getByRole('heading', { name: text('en', 'oauth:authorize.asks', { app: 'Pocket' }) }).waitFor();
    await expect(main.getByRole('listitem').first().textContent()).resolves.toBe(text('en', 'oauth:scopes.read'));
    await main.getByRole('button', { name: text('en', 'oauth:authorize.approve'), exact: true }).click();

    await page.waitForURL((url) => url.host === 'pocket.example');
    const landed = new URL(page.url());
    expect(landed.pathname).toBe('/signed-in');
    expect(landed.searchParams.get('state')).toBe('kept-state');
    const code = landed.searchParams.get('code');
    expect(code).toMatch(/^[\w-]{43}$/);

    const exchanged = await server.app.inject({
      method: 'POST',
      url: '/oauth/token',
      payload: { grant_type: 'authorization_code', client_id: client.client_id, code, redirect_uri: APP_ADDRESS, code_verifier: verifier },
    });
    expect(exchanged.statusCode).toBe(200);
    const me = await server.app.inject({
      method: 'GET',
      url: '/api/v1/accounts/verify_credentials',
      headers: { authorization: `Bearer ${(exchanged.json() as { access_token: string }).access_token}` },
    });
    expect(me.json()).toMatchObject({ username: user.username });
  });
});
