import type { DomainEventName, EventSubscriber } from './lib/events/domain-events.js';
import { federationSubscribers as federation } from './modules/federation/subscribers.js';
import { notificationSubscribers as notifications } from './modules/notifications/subscribers.js';

/**
 * Who reacts to each domain event, in order: the one place that knows them all, registered on the
 * app (`app.eventSubscribers`). Every event is listed, with no subscriber when nobody reacts yet,
 * so a new event cannot be published unheard by mistake; notifications come before federation.
 */
export const EVENT_SUBSCRIBERS = {
  'post.created': [notifications['post.created'], federation['post.created']],
  'post.edited': [notifications['post.edited'], federation['post.edited']],
  'post.like_changing': [federation['post.like_changing']],
  'post.deleting': [federation['post.deleting']],
  'comment.created': [notifications['comment.created'], federation['comment.created']],
  'comment.edited': [notifications['comment.edited']],
  'comment.like_changing': [federation['comment.like_changing']],
  'comment.deleting': [federation['comment.deleting']],
  'media.attached': [federation['media.attached']],
  'follow.created': [notifications['follow.created'], federation['follow.created']],
  'follow.ending': [federation['follow.ending']],
  'block.created': [federation['block.created']],
  'group.member_joined': [notifications['group.member_joined']],
  'group.join_requested': [notifications['group.join_requested']],
  'group.join_withdrawn': [notifications['group.join_withdrawn']],
  'group.join_accepted': [notifications['group.join_accepted']],
  'group.join_denied': [notifications['group.join_denied']],
  'group.admin_granted': [notifications['group.admin_granted']],
  'group.admin_revoked': [notifications['group.admin_revoked']],
  'group.ownership_passed': [notifications['group.ownership_passed']],
  'group.made_private': [federation['group.made_private']],
  'group.deleting': [notifications['group.deleting'], federation['group.deleting']],
  'account.deleting': [federation['account.deleting']],
} satisfies { readonly [N in DomainEventName]-?: readonly EventSubscriber<N>[] };
