/** What the test asks the bot's process to do over its IPC channel, and how it answers. */

/** The audience of a note: actor IRIs, collections, or the public. */
export interface Addressing {
  to?: string | string[];
  cc?: string | string[];
}

/** JSON-LD as the bot writes it out (compacted). */
export type Json = Record<string, unknown>;

export type PeerCommand =
  /** Waits until the bot has nothing left to take in or send out. */
  | { command: 'idle'; args: [] }
  /** The bot's jobs that failed (a delivery refused, an activity it could not take in), with their error. */
  | { command: 'troubles'; args: [] }
  /** The actor IRI a `name@host` handle names, by WebFinger. */
  | { command: 'actorIdOf'; args: [handle: string] }
  /** The object at an IRI, fetched (signed, as the bot fetches) or from its own store. */
  | { command: 'fetch'; args: [id: string] }
  | { command: 'follow'; args: [actorId: string] }
  | { command: 'unfollow'; args: [actorId: string] }
  | { command: 'isFollowing'; args: [actorId: string] }
  | { command: 'isFollower'; args: [actorId: string] }
  /** A Note; its content is written as the bot's microsyntax reads it (`@name@host` mentions, #tags). */
  | { command: 'note'; args: [content: string, addressing: Addressing] }
  | { command: 'reply'; args: [content: string, inReplyTo: string] }
  | { command: 'like'; args: [id: string] }
  /** Every activity handed to the bot so far, as it read them, in order. */
  | { command: 'received'; args: [] }
  /** Every request the bot answered so far (PeerRequest), in order. */
  | { command: 'requests'; args: [] };

/** A request the bot answered: `signer` is the actor whose signature of it the bot verified. */
export interface PeerRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** The body as received (empty for a GET). */
  body: string;
  status: number;
  signed: boolean;
  signer: string | null;
}

export type PeerReply = { id: number; result: unknown } | { id: number; error: string };
