import type { Context } from '@fedify/fedify';
import { Application, Endpoints } from '@fedify/fedify/vocab';
import type { Config } from '../../../config.js';
import { INSTANCE_ACTOR_ID } from '../../remote/actor-path.js';

/**
 * The instance's own actor: an Application standing for the server, never a user. Its key signs
 * every document the instance reads from other servers, since servers in authorized-fetch mode
 * (GoToSocial by default, Mastodon with AUTHORIZED_FETCH) answer only a GET signed by an actor of
 * the asking server, and signing as a user would speak for someone who asked nothing. Named as
 * Mastodon names its own, `<host>@<host>`, so a server can find it by WebFinger too. Its key and
 * the signing with it are modules/remote's (instance-signer.ts), which every fetch goes through.
 */

/** The instance actor's name in WebFinger and its preferredUsername: the instance's host. */
const instanceName = (config: Config) => new URL(config.publicUrl).host;

/** Whether a WebFinger name is the instance actor's (a host matches in any case). */
export const isInstanceName = (config: Config, name: string) => name.toLowerCase() === instanceName(config).toLowerCase();

/** The instance actor's document: its key, the shared inbox, the app's front page. */
export async function instanceActor(ctx: Context<void>, config: Config): Promise<Application> {
  const keys = await ctx.getActorKeyPairs(INSTANCE_ACTOR_ID);
  return new Application({
    id: ctx.getActorUri(INSTANCE_ACTOR_ID),
    preferredUsername: instanceName(config),
    name: instanceName(config),
    url: new URL('/', config.publicUrl),
    inbox: ctx.getInboxUri(),
    endpoints: new Endpoints({ sharedInbox: ctx.getInboxUri() }),
    // Nobody follows a server's own actor; a Follow of it is never accepted.
    manuallyApprovesFollowers: true,
    publicKey: keys[0]?.cryptographicKey ?? null,
    assertionMethods: keys.map((key) => key.multikey),
  });
}
