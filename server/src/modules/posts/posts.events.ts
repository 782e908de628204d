/**
 * What the posts module publishes (lib/events): a post written, stored from another server,
 * edited, liked or about to be deleted.
 */
declare module '../../lib/events/domain-events.js' {
  interface DomainEvents {
    /**
     * A post was stored. `pictures`: how many the app uploads after it (see media.attached);
     * `quiet`: an old post read from its author's outbox, stored without telling anyone;
     * `remote`: it came from another server, posted into these local groups.
     */
    'post.created': { postId: string; pictures: number; quiet?: boolean; remote?: { groupIds: readonly string[] } };
    /** Its author changed the text (`textChanged`) or newly mentioned these users, or both. */
    'post.edited': { postId: string; textChanged: boolean; newlyMentioned: readonly string[] };
    /** A like of the post is about to be given or taken back (`now`: when it is given). */
    'post.like_changing': { postId: string; userId: string; liked: boolean; now: number };
    /** The post is about to be deleted by its author: its rows are still there to read. */
    'post.deleting': { postId: string };
  }
}

export {};
