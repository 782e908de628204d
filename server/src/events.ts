import type { DomainEventName, EventSubscriber } from './lib/events/domain-events.js';
import { federationSubscribers as federation } from './modules/federation/subscribers.js';
import { notificationSubscribers as notifications } from './modules/notifications/subscribers.js';

/** A module's table of reactions that has one for event N. */
type ReactsTo<N extends DomainEventName> = { readonly [K in N]: EventSubscriber<N> };

/**
 * Which modules react to each domain event, in order: the one place that knows them all.
 * Every event is listed, with no module when nobody reacts yet, so a new event cannot be published
 * unheard by mistake; notifications come before federation. A module named for an event must
 * have a subscriber for it (the type checks it).
 */
const REACTING: { readonly [N in DomainEventName]-?: readonly ReactsTo<N>[] } = {
  'post.created': [notifications, federation],
  'post.edited': [notifications, federation],
  'post.like_changing': [federation],
  'post.deleting': [notifications, federation],
  'comment.created': [notifications, federation],
  'comment.edited': [notifications],
  'comment.like_changing': [federation],
  'comment.deleting': [federation],
  'media.attached': [notifications, federation],
  'follow.created': [notifications, federation],
  'follow.ending': [federation],
  'block.created': [federation],
  'group.member_joined': [notifications],
  'group.join_requested': [notifications],
  'group.join_withdrawn': [notifications],
  'group.join_accepted': [notifications],
  'group.join_denied': [notifications],
  'group.admin_granted': [notifications],
  'group.admin_revoked': [notifications],
  'group.ownership_passed': [notifications],
  'group.made_private': [federation],
  'group.deleting': [notifications, federation],
  'account.deleting': [federation],
  'client_token.revoked': [notifications],
};

/**
 * The subscribers of each event, run in the order listed; registered on the app
 * (`app.eventSubscribers`). REACTING's type has checked each module against each event it is named
 * for; TypeScript cannot follow an event's name through the loop, hence the cast.
 */
export const EVENT_SUBSCRIBERS = Object.fromEntries(
  Object.entries(REACTING).map(([name, modules]) => [name, modules.map((module) => (module as Readonly<Record<string, unknown>>)[name])]),
) as unknown as { readonly [N in DomainEventName]: readonly EventSubscriber<N>[] };
