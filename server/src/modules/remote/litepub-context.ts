/**
 * LitePub's JSON-LD context, which Pleroma, Akkoma and Mobilizon name by address in place of the
 * security one: an actor's key is a term of it, so a document naming it read without it would have
 * no key, and none of these servers' signatures could be checked. Contexts are never fetched (a
 * sender would choose what the instance requests), so the instance reads its own copy instead,
 * whichever server's address names it. It keeps the terms the instance and Fedify read; any other
 * is left out of what is read, as under a context the instance does not know.
 */

/** Where each Pleroma or Akkoma server serves its copy of the context. */
const SERVED_AT = '/schemas/litepub-0.1.jsonld';

/** The context's own address (Mobilizon names it so), over https or plain http. */
const CANONICAL = /^https?:\/\/litepub\.social\/litepub\/context\.jsonld$/;

export const LITEPUB_CONTEXT = {
  '@context': [
    'https://www.w3.org/ns/activitystreams',
    'https://w3id.org/security/v1',
    {
      litepub: 'http://litepub.social/ns#',
      toot: 'http://joinmastodon.org/ns#',
      schema: 'http://schema.org#',
      ostatus: 'http://ostatus.org#',
      fedibird: 'http://fedibird.com/ns#',
      misskey: 'https://misskey-hub.net/ns#',
      Hashtag: 'as:Hashtag',
      sensitive: 'as:sensitive',
      manuallyApprovesFollowers: 'as:manuallyApprovesFollowers',
      alsoKnownAs: { '@id': 'as:alsoKnownAs', '@type': '@id' },
      quoteUrl: 'as:quoteUrl',
      quoteUri: 'fedibird:quoteUri',
      Emoji: 'toot:Emoji',
      discoverable: 'toot:discoverable',
      featured: { '@id': 'toot:featured', '@type': '@id' },
      PropertyValue: 'schema:PropertyValue',
      value: 'schema:value',
      atomUri: 'ostatus:atomUri',
      conversation: { '@id': 'ostatus:conversation', '@type': '@id' },
      directMessage: 'litepub:directMessage',
      EmojiReact: 'litepub:EmojiReact',
      ChatMessage: 'litepub:ChatMessage',
      isCat: 'misskey:isCat',
    },
  ],
};

/** Whether the address names LitePub's context: its own, or a server's copy at the usual place. */
export const isLitepubContext = (url: string): boolean => CANONICAL.test(url) || URL.parse(url)?.pathname === SERVED_AT;
