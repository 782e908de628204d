/** What the account module publishes (lib/events). */
declare module '../../lib/events/domain-events.js' {
  interface DomainEvents {
    /** The account is about to be deleted: its rows (followers included) are still there to read. */
    'account.deleting': { userId: string };
  }
}

export {};
