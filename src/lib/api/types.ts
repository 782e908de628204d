/** API shapes the web app reads, all from the contract (core/api). */
import type { Post } from '#core/api/posts';

export type { Post, PostList } from '#core/api/posts';
/** A group a post is tagged with: `_id` null when it was plain text or the group is gone. */
export type Tag = Post['groups'][number];
/** A user a post mentions: `_id` null when it was plain text or the user is gone. */
export type MentionTag = Post['mentions'][number];

export type { Comment } from '#core/api/comments';

/** A page of groups (a user's groups, the group search); gpUrl may be absent from copies stored before the server sent it. */
export type { GroupListItem, GroupListReply as GroupList } from '#core/api/common';
/** A suggestion of GET /search/users and /search/mygroups. */
export type { NameResult } from '#core/api/search';
/** The reply of a like call (a post's or a comment's). */
export type { LikeReply as LikeResult } from '#core/api/common';
