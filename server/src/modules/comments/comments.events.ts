/**
 * What the comments module publishes (lib/events): a comment written, edited by its remote author,
 * liked or about to be deleted.
 */
declare module '../../lib/events/domain-events.js' {
  interface DomainEvents {
    /**
     * A comment was stored. `pictures`: how many the app uploads after it (see media.attached);
     * `quiet`: one from another server stored without telling anyone.
     */
    'comment.created': { commentId: string; pictures: number; quiet?: boolean };
    /** Its remote author changed its text and newly mentioned these users. */
    'comment.edited': { commentId: string; newlyMentioned: readonly string[] };
    /** A like of the comment is about to be given or taken back; `liked` left out toggles it. */
    'comment.like_changing': { commentId: string; userId: string; liked: boolean | undefined; now: number };
    /** The comment is about to be deleted by its author: its rows are still there to read. */
    'comment.deleting': { commentId: string };
  }
}

export {};
