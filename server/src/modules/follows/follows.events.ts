/** What the follows module publishes (lib/events): a follow made, or about to end. */
declare module '../../lib/events/domain-events.js' {
  interface DomainEvents {
    /** A follow was made, by a user here or by a remote account whose Follow was accepted. */
    'follow.created': { followerId: string; followingId: string };
    /** A user's follow is about to end: its row, and when it was made, are still there to read. */
    'follow.ending': { followerId: string; followingId: string };
  }
}

export {};
