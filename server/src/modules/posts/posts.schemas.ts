import { Type } from '@sinclair/typebox';
import { LIMITS } from '#core/limits';

const NullableId = Type.Union([Type.String(), Type.Null()]);

/** The post card; field meanings are documented on PostView in posts.mapper.ts. */
export const PostSchema = Type.Object({
  _id: Type.String(),
  text: Type.String(),
  author: Type.Object({ username: Type.String(), pfp: Type.String(), pfpUrl: Type.String() }),
  createdAt: Type.Number(),
  likes: Type.Integer(),
  liked: Type.Boolean(),
  comments: Type.Integer(),
  replyingTo: Type.Union([Type.String(), Type.Null()]),
  groups: Type.Array(Type.Object({ _id: NullableId, name: Type.String() })),
  mentions: Type.Array(Type.Object({ _id: NullableId, username: Type.String() })),
  itsme: Type.Boolean(),
  adminGroups: Type.Array(Type.Integer()),
  pinnedGroups: Type.Array(Type.Integer()),
  ownedGroups: Type.Array(Type.Integer()),
  bannedGroups: Type.Array(Type.Integer()),
  canReply: Type.Boolean(),
  images: Type.Integer(),
  media: Type.Array(Type.String()),
});

export const PostList = Type.Object({ posts: Type.Array(PostSchema), hasMore: Type.Boolean() });

/** Mention and group entries are ids or typed names; the slot count is checked after de-duplication. */
const SlotEntries = Type.Array(Type.String({ maxLength: 100 }), { maxItems: 4 * LIMITS.mentionsPerPost });

export const CreatePostBody = Type.Object({
  text: Type.Optional(Type.Unknown()),
  mentions: Type.Optional(SlotEntries),
  groups: Type.Optional(SlotEntries),
  replyingTo: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});

/** 201 of POST /post: the post itself (so `_id` is top level) and the same view under `post`. */
export const CreatePostReply = Type.Composite([PostSchema, Type.Object({ post: PostSchema })]);


