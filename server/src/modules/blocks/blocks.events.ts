/** What the blocks module publishes (lib/events). */
declare module '../../lib/events/domain-events.js' {
  interface DomainEvents {
    /** `blockerId` blocked `blockedId` (or blocked them again), their follows both ways already ended. */
    'block.created': { blockerId: string; blockedId: string };
  }
}

export {};
