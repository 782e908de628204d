/**
 * The parts of @evanp/activitypub-bot (an ActivityPub server for bots, written by an author of the
 * ActivityPub specification) that the federation suite drives; the package ships no types. Objects
 * are activitystrea.ms objects: `export()` gives their JSON-LD, compacted.
 */
declare module '@evanp/activitypub-bot' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export interface AsObject {
    readonly id: string;
    export(options?: { useOriginalContext?: boolean }): Promise<Record<string, unknown>>;
  }

  /** A bot's means of acting: each call is an activity the server signs and delivers, or a look-up. */
  export interface BotContext {
    getObject(id: string): Promise<AsObject | null>;
    sendNote(content: string, addressing: { to?: string | string[]; cc?: string | string[] }): Promise<AsObject>;
    sendReply(content: string, object: AsObject): Promise<AsObject>;
    likeObject(object: AsObject): Promise<AsObject>;
    followActor(actor: AsObject): Promise<AsObject>;
    unfollowActor(actor: AsObject): Promise<AsObject>;
    /** The actor IRI of a `name@host` handle, by WebFinger (over https). */
    toActorId(webfinger: string): Promise<string | null>;
    isFollowing(actor: AsObject): Promise<boolean>;
    isFollower(actor: AsObject): Promise<boolean>;
  }

  export class Bot {
    constructor(username: string, options?: { fullname?: string; description?: string });
    protected readonly _context: BotContext;
    /** Runs before the bot's own handling of an activity; true means it was handled. */
    handleActivity(activity: AsObject): Promise<boolean>;
  }
  export class DoNothingBot extends Bot {}

  /** Express: a request listener. */
  export interface BotApp {
    (request: IncomingMessage, response: ServerResponse): void;
    locals: {
      /** Its Sequelize connection. */
      connection: { query<Row>(sql: string, options: { replacements?: unknown[]; type: 'SELECT' }): Promise<Row[]> };
    };
  }

  export function makeApp(options: {
    databaseUrl: string;
    origin: string;
    bots: Record<string, Bot>;
    logLevel?: string;
    deliveryWorkerCount?: number;
    distributionWorkerCount?: number;
    fanoutWorkerCount?: number;
    intakeWorkerCount?: number;
    /** Lets it reach addresses of this machine and private networks (refused otherwise). */
    allowPrivateNetworkRequests?: boolean;
  }): Promise<BotApp>;
}
