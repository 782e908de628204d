import { createRequire } from 'node:module';

/**
 * The bot is written against activitystrea.ms 4, which is not on the npm registry; package.json pins
 * 3.1.0 in its place (an override), and this adds what the bot calls that 3.1.0 lacks. It must run
 * before the bot's modules load: the library's JSON-LD module makes its own context loader once,
 * when it is first loaded.
 *
 * - `registerContext(url, document)`: the bot registers the JSON-LD contexts it knows (security,
 *   data integrity, multikey…) instead of fetching them.
 * - `isActivity()` on every object: its inboxes refuse what is not an activity.
 * - contexts registered that way are also used when an object is written out, and a context no one
 *   registered is refused rather than fetched from the network, so the suite needs no network.
 * - writing an object with `useOriginalContext` uses the context it was read with.
 */

const AS = 'https://www.w3.org/ns/activitystreams#';
const ACTIVITY_TYPES = new Set(
  [
    'Activity', 'IntransitiveActivity', 'Accept', 'Add', 'Announce', 'Arrive', 'Block', 'Create', 'Delete', 'Dislike', 'Flag',
    'Follow', 'Ignore', 'Invite', 'Join', 'Leave', 'Like', 'Listen', 'Move', 'Offer', 'Question', 'Read', 'Reject', 'Remove',
    'TentativeAccept', 'TentativeReject', 'Travel', 'Undo', 'Update', 'View',
  ].map((name) => AS + name),
);
/** What only an activity has: an object of another type with one of these is taken for an activity too. */
const ACTIVITY_PROPERTIES = ['actor', 'object', 'target', 'result', 'origin', 'instrument'];

interface ContextLoader {
  get(url: string): unknown;
  register(url: string, document: unknown): ContextLoader;
}
interface LoaderClass {
  prototype: ContextLoader & { makeDocLoader(this: ContextLoader): (url: string) => Promise<unknown> };
  defaultInstance: ContextLoader;
}
interface AsObject {
  type: string | string[] | undefined;
  has(key: string): boolean;
}

let applied = false;

export function backportActivityStreams(): void {
  if (applied) return;
  applied = true;
  // Resolved from the bot's own folder, so this is the copy the bot imports.
  const fromBot = createRequire(createRequire(import.meta.url).resolve('@evanp/activitypub-bot'));
  const Loader = fromBot('activitystrea.ms/src/contextloader.js') as LoaderClass;
  const Environment = fromBot('activitystrea.ms/src/environment.js') as { prototype: object };

  Loader.prototype.makeDocLoader = function makeDocLoader(this: ContextLoader) {
    return async (url: string) => {
      const document = this.get(url) ?? Loader.defaultInstance.get(url);
      if (document === undefined) throw new Error(`JSON-LD context ${url} is not registered; the test's bot fetches none`);
      return { contextUrl: null, document, documentUrl: url };
    };
  };
  // 3.1.0 reads the original context from a property its environment does not have.
  Object.defineProperty(Environment.prototype, 'origContext', {
    get(this: { originalContext: unknown }) {
      return this.originalContext;
    },
  });

  const as2 = fromBot('activitystrea.ms') as { models: { Base: { prototype: object } } } & Record<string, unknown>;
  as2.registerContext = (url: string, document: unknown) => {
    Loader.defaultInstance.register(url, document);
  };
  Object.defineProperty(as2.models.Base.prototype, 'isActivity', {
    value(this: AsObject): boolean {
      const types = [this.type ?? []].flat();
      if (types.some((type) => ACTIVITY_TYPES.has(type))) return true;
      // Any other type of the vocabulary (Note, Person, Collection…) is not one.
      if (types.some((type) => type.startsWith(AS))) return false;
      return ACTIVITY_PROPERTIES.some((property) => this.has(property));
    },
  });
}
