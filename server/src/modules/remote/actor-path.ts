/**
 * Where the instance's actors live: its public users and groups, and the instance's own actor.
 * An actor's address carries an id, never a name, so it stays the same for other servers.
 */

/** Where the actors and their collections live; one pattern for all of them (ids never collide). */
export const ACTOR_PATH = '/ap/actors/{identifier}';

/** The address of the actor of an id (what ACTOR_PATH makes of it). */
export const actorUrl = (origin: string, id: string) => new URL(ACTOR_PATH.replace('{identifier}', encodeURIComponent(id)), origin).href;

/** The identifier of the instance's own actor: not the shape of a user's or group's id (24 hex digits). */
export const INSTANCE_ACTOR_ID = 'instance';
