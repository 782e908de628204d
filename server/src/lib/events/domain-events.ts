import type { ServiceContext } from '../service-context.js';

/**
 * What happened in the server, as the module that made it happen says it, for whoever reacts
 * (notifications, other servers). A service publishes an event inside the transaction of its
 * write; each subscriber runs in that same transaction and only queues durable jobs or keeps its
 * own rows in step, so a write that rolls back has published nothing. Which modules react to what
 * is decided in one place, the composition root (server/src/events.ts), registered on the app
 * (`app.eventSubscribers`): the modules that publish depend on this folder only.
 */

/**
 * Every event's payload, by its name. Empty here: the module that publishes an event declares it
 * (`declare module '…/lib/events/domain-events.js'`), so this folder imports no module, and
 * publishing an event with another event's payload does not compile. Events about something about
 * to be removed (`….deleting`, `….ending`, `….changing`) are published while its rows are still
 * there to read.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled in by each publishing module's declaration
export interface DomainEvents {}

export type DomainEventName = keyof DomainEvents;

/** One reaction to an event, run in the publisher's transaction (`ctx.db`). */
export type EventSubscriber<N extends DomainEventName> = (ctx: ServiceContext, payload: DomainEvents[N]) => Promise<void>;

/** The subscribers of each event, run in the order listed; an event not named has none. */
export type EventSubscribers = { readonly [N in DomainEventName]?: readonly EventSubscriber<N>[] };

/** One module's reactions: at most one subscriber per event, which the composition root lists. */
export type SubscriberTable = { readonly [N in DomainEventName]?: EventSubscriber<N> };

/**
 * Tells the event's subscribers, one after another, on the caller's executor: call it inside the
 * transaction of the write the event tells of, after the write (or before the rows go, for an
 * event about a removal).
 */
export async function publishEvent<N extends DomainEventName>(ctx: ServiceContext, name: N, payload: DomainEvents[N]): Promise<void> {
  const subscribers: readonly EventSubscriber<N>[] = ctx.app.eventSubscribers[name] ?? [];
  for (const subscriber of subscribers) await subscriber(ctx, payload);
}

declare module 'fastify' {
  interface FastifyInstance {
    eventSubscribers: EventSubscribers;
  }
}
