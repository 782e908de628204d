/**
 * What the groups module publishes (lib/events): who joined, asked, was answered or changed role,
 * and a group made private or about to be deleted. `actorId`: the admin or owner who did it.
 */
declare module '../../lib/events/domain-events.js' {
  interface DomainEvents {
    'group.member_joined': { groupId: string; userId: string };
    'group.join_requested': { groupId: string; userId: string };
    'group.join_withdrawn': { groupId: string; userId: string };
    'group.join_accepted': { groupId: string; actorId: string; userId: string };
    'group.join_denied': { groupId: string; actorId: string; userId: string };
    'group.admin_granted': { groupId: string; actorId: string; userId: string };
    'group.admin_revoked': { groupId: string; actorId: string; userId: string };
    /** The group passed to `userId`, given by its owner or left by an owner's deleted account. */
    'group.ownership_passed': { groupId: string; actorId: string; userId: string };
    /** A public group became private. */
    'group.made_private': { groupId: string };
    /** The group is about to be deleted; its posts are already gone or untagged. */
    'group.deleting': { groupId: string };
  }
}

export {};
