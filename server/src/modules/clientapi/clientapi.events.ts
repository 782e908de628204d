/** What the client API publishes (lib/events): an app's access tokens stopped for good. */
declare module '../../lib/events/domain-events.js' {
  interface DomainEvents {
    /** Access tokens were revoked (by their app, by their person, or replaced by a refresh). */
    'client_token.revoked': { tokenIds: string[] };
  }
}

export {};
