import { createRestAPIClient } from 'masto';
import generator from 'megalodon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '#core/limits';
import { type KruhInstance, startInstance } from '../helpers/kruh-instance';

/**
 * Two client libraries apps are built on, from the registry, against a running instance over
 * HTTP: what they read of the instance and how they register an app.
 */
describe('client API through real client libraries', () => {
  let instance: KruhInstance;
  beforeAll(async () => {
    instance = await startInstance();
  });
  afterAll(async () => {
    await instance.close();
  });

  it('masto reads both versions of the instance and registers an app', async () => {
    const masto = createRestAPIClient({ url: instance.origin });
    const v1 = await masto.v1.instance.fetch();
    expect(v1.uri).toBe(instance.host);
    expect(v1.configuration.statuses.maxCharacters).toBe(LIMITS.textMaxLength);
    const v2 = await masto.v2.instance.fetch();
    expect(v2.domain).toBe(instance.host);
    expect(v2.configuration.mediaAttachments.imageSizeLimit).toBe(LIMITS.imageMaxBytes);
    const app = await masto.v1.apps.create({ clientName: 'masto test', redirectUris: 'urn:ietf:wg:oauth:2.0:oob', scopes: 'read write follow' });
    expect(app.name).toBe('masto test');
    expect(app.clientId).toEqual(expect.any(String));
    expect(app.clientSecret).toEqual(expect.any(String));
  });

  it('masto sees a refused registration as an error carrying the sentence', async () => {
    const masto = createRestAPIClient({ url: instance.origin });
    await expect(masto.v1.apps.create({ clientName: 'bad', redirectUris: 'not a url', scopes: 'read' })).rejects.toMatchObject({
      statusCode: 422,
      message: expect.stringContaining('redirect'),
    });
  });

  it('megalodon reads the instance and registers an app with its authorisation address', async () => {
    const client = generator('mastodon', instance.origin);
    const res = await client.getInstance();
    expect(res.data.uri).toBe(instance.host);
    expect(res.data.version).toMatch(/compatible; Kruh/);
    const app = await client.registerApp('megalodon test', { scopes: ['read', 'write:statuses'] });
    expect(app.client_id).toEqual(expect.any(String));
    expect(app.client_secret).toEqual(expect.any(String));
    expect(app.redirect_uri).toBe('urn:ietf:wg:oauth:2.0:oob');
    expect(app.url).toContain(`${instance.origin}/oauth/authorize`);
  });

  it('megalodon gets the refusal of an unknown scope', async () => {
    const client = generator('mastodon', instance.origin);
    await expect(client.registerApp('megalodon bad', { scopes: ['read', 'admin:everything'] })).rejects.toMatchObject({ response: { status: 422 } });
  });
});
