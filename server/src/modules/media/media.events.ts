/** What the media module publishes (lib/events). */
declare module '../../lib/events/domain-events.js' {
  interface DomainEvents {
    /** A picture of a post or a comment was stored, in the transaction that records it. */
    'media.attached': { owner: 'post' | 'comment'; ownerId: string };
  }
}

export {};
