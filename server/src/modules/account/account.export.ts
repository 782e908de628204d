import { PassThrough, Readable } from 'node:stream';
import { ZipFile } from 'yazl';
import { GROUP_NOTIFICATION_LEVELS, NOTIFICATION_SETTINGS } from '#core/limits';
import type { PasskeyItem } from '#core/api/passkeys';
import type { MediaStorage } from '../../lib/storage.js';
import type { AuthoredComment, LikedComment } from '../comments/comments.service.js';
import type { FollowEdge } from '../follows/follows.service.js';
import type { MembershipRow } from '../groups/memberships.js';
import { avatarKey, imageKey } from '../../policy/media-urls.js';
import type { AuthoredPost, LikedPost } from './post-export.js';
import type { UserRecord } from '../auth/auth.records.js';
import { notificationSettingsOf } from './account.mapper.js';

/**
 * The data export as a zip: JSON files of what the account holds, the images it uploaded and a
 * README.txt that explains them. The short parts are read before the answer starts; the long lists
 * (posts, comments, likes) are read a page at a time as their files are written, and the images one
 * at a time as the zip takes them, each read on only once the download has taken what came before:
 * an export holds a page and an image at a time, however large the account.
 */

/** A list the export reads a page at a time, as its file is written. */
export type Pages<T> = () => AsyncIterable<T[]>;

/** One of the account's posts or comments that holds images, and how many. */
export interface ImageHolder {
  id: string;
  images: number;
}

/** What the export holds, gathered through the modules that own each table. */
export interface AccountData {
  user: UserRecord;
  posts: Pages<AuthoredPost>;
  comments: Pages<AuthoredComment>;
  likedPosts: Pages<LikedPost>;
  likedComments: Pages<LikedComment>;
  postImages: Pages<ImageHolder>;
  commentImages: Pages<ImageHolder>;
  follows: { following: (FollowEdge & { notify: boolean })[]; followers: FollowEdge[] };
  groups: MembershipRow[];
  passkeys: PasskeyItem[];
  pushDevices: Array<{ endpoint: string; created_at: number; updated_at: number }>;
  safety: { blocked: ListedPerson[]; muted: ListedPerson[]; mutedHashtags: Array<{ tag: string; since: number }> };
}

/** Someone on one of the account's lists, and since when. */
interface ListedPerson {
  id: string;
  username: string;
  since: number;
}

/** `kruh-<username>-<yyyy-mm-dd>.zip`, the day in UTC. */
export function exportFileName(username: string, now: Date): string {
  return `kruh-${username}-${now.toISOString().slice(0, 10)}.zip`;
}

/**
 * The Content-Disposition of the download. A header carries ASCII only, and a name may hold any
 * script or a quote: the plain `filename` then gets `_` for each such character, and `filename*`
 * carries the name as it is, which browsers prefer.
 */
export function attachmentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^A-Za-z0-9._-]/g, '_');
  if (ascii === fileName) return `attachment; filename="${fileName}"`;
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

const iso = (ms: number) => new Date(ms).toISOString();

const LEVEL_NAMES = Object.fromEntries(Object.entries(GROUP_NOTIFICATION_LEVELS).map(([name, level]) => [level, name])) as Record<number, string>;

/** One image to put into the zip: where it is stored and where it goes. */
interface ImageFile {
  key: string;
  path: string;
}

const postImages = (post: ImageHolder): ImageFile[] =>
  Array.from({ length: post.images }, (_, index) => ({ key: imageKey(post.id, index), path: `images/posts/${post.id}-${index}.webp` }));

const commentImages = (comment: ImageHolder): ImageFile[] =>
  Array.from({ length: comment.images }, (_, index) => ({ key: imageKey(comment.id, index), path: `images/comments/${comment.id}-${index}.webp` }));

/** A list of a JSON file whose items are read and written a page at a time. */
class PagedList<T> {
  constructor(
    private readonly pages: Pages<T>,
    private readonly toJson: (item: T) => unknown,
  ) {}

  async *items(): AsyncGenerator<unknown[]> {
    for await (const page of this.pages()) yield page.map(this.toJson);
  }
}

/** JSON.stringify(value, null, 2), its lines after the first indented by `indent`. */
const indented = (value: unknown, indent: string) => JSON.stringify(value, null, 2).replace(/\n/g, `\n${indent}`);

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;

/**
 * The text JSON.stringify(value, null, 2) gives, in pieces: a PagedList in it is written a page at a
 * time, so the file never sits in memory whole, and the text is the same as when it did.
 */
async function* jsonPieces(value: unknown, indent: string): AsyncGenerator<string> {
  const inner = `${indent}  `;
  if (value instanceof PagedList) {
    let empty = true;
    for await (const page of value.items()) {
      if (page.length === 0) continue;
      yield page.map((item, index) => `${empty && index === 0 ? '[' : ','}\n${inner}${indented(item, inner)}`).join('');
      empty = false;
    }
    yield empty ? '[]' : `\n${indent}]`;
  } else if (isPlainObject(value)) {
    const entries = Object.entries(value).filter(([, field]) => field !== undefined);
    if (entries.length === 0) {
      yield '{}';
      return;
    }
    for (const [index, [key, field]] of entries.entries()) {
      yield `${index === 0 ? '{' : ','}\n${inner}${JSON.stringify(key)}: `;
      yield* jsonPieces(field, inner);
    }
    yield `\n${indent}}`;
  } else {
    yield indented(value, indent);
  }
}

/** A JSON file of the zip as a stream of its bytes, read on as the zip takes them. */
async function* jsonFile(value: unknown): AsyncGenerator<Buffer> {
  for await (const piece of jsonPieces(value, '')) yield Buffer.from(piece);
  yield Buffer.from('\n');
}

const AVATAR_PATH = 'images/avatar.jpeg';

/** The JSON files, each image path listed only when its file made it into the zip. */
function jsonFiles(data: AccountData, written: Set<string>): Record<string, unknown> {
  // The images in the zip, and beside them each one's description ('' for none), in the same order.
  const present = (files: ImageFile[], alts: string[]) => {
    const kept = files.flatMap((file, index) => (written.has(file.path) ? [{ path: file.path, alt: alts[index] ?? '' }] : []));
    return { images: kept.map((image) => image.path), imageDescriptions: kept.map((image) => image.alt) };
  };
  const { user } = data;
  const switches = notificationSettingsOf(user);
  return {
    'account.json': {
      id: user.id,
      username: user.username,
      email: user.email,
      bio: user.bio,
      language: user.language,
      createdAt: iso(Number(user.created_at)),
      signsInWithGoogle: user.google_sub !== null,
      avatar: written.has(AVATAR_PATH) ? AVATAR_PATH : null,
    },
    'posts.json': new PagedList(data.posts, (post) => ({
      id: post.id,
      text: post.text,
      createdAt: iso(post.createdAt),
      replyingTo: post.replyingTo,
      groups: post.groups.map((g) => ({ id: g.id, name: g.name })),
      mentions: post.mentions.map((m) => ({ id: m.id, username: m.name })),
      inPrivateGroup: post.isPrivate,
      likes: post.likes,
      comments: post.comments,
      contentWarning: post.contentWarning,
      editedAt: post.editedAt === null ? null : iso(post.editedAt),
      earlierVersions: post.earlierVersions.map((v) => ({ ...v, writtenAt: iso(v.writtenAt), replacedAt: iso(v.replacedAt) })),
      ...present(postImages(post), post.alts),
    })),
    'comments.json': new PagedList(data.comments, (comment) => ({
      id: comment.id,
      postId: comment.postId,
      parentCommentId: comment.parentCommentId,
      text: comment.text,
      createdAt: iso(comment.createdAt),
      mentions: comment.mentions.map((m) => ({ id: m.id, username: m.name })),
      likes: comment.likes,
      replies: comment.replies,
      ...present(commentImages(comment), comment.alts),
    })),
    'likes.json': {
      posts: new PagedList(data.likedPosts, (like) => ({
        postId: like.postId,
        likedAt: iso(like.likedAt),
        post: like.post && { ...like.post, createdAt: iso(like.post.createdAt) },
      })),
      comments: new PagedList(data.likedComments, (like) => ({
        commentId: like.commentId,
        likedAt: iso(like.likedAt),
        comment: like.comment && { ...like.comment, createdAt: iso(like.comment.createdAt) },
      })),
    },
    'follows.json': {
      following: data.follows.following.map((f) => ({ id: f.userId, username: f.username, since: iso(f.since), newPostNotifications: f.notify })),
      followers: data.follows.followers.map((f) => ({ id: f.userId, username: f.username, since: iso(f.since) })),
    },
    'groups.json': data.groups.map((g) => ({
      id: g.id,
      name: g.name,
      description: g.description,
      private: g.is_private,
      role: g.role,
      joinedAt: iso(g.joined_at),
      notifications: LEVEL_NAMES[g.level] ?? 'all',
    })),
    'notification-settings.json': Object.fromEntries(NOTIFICATION_SETTINGS.map((name, index) => [name, switches[index] ?? true])),
    'safety.json': {
      blocked: data.safety.blocked.map((p) => ({ id: p.id, username: p.username, since: iso(p.since) })),
      muted: data.safety.muted.map((p) => ({ id: p.id, username: p.username, since: iso(p.since) })),
      mutedHashtags: data.safety.mutedHashtags.map((h) => ({ tag: h.tag, since: iso(h.since) })),
    },
    // What lets the account in and reach its devices, without the secrets: a passkey's public key
    // and a device's push keys mean nothing outside this server, so only names and times go out.
    'sign-in.json': {
      passkeys: data.passkeys.map((p) => ({ name: p.name, createdAt: iso(p.createdAt), lastUsedAt: p.lastUsedAt === null ? null : iso(p.lastUsedAt) })),
      pushDevices: data.pushDevices.map((d) => ({ service: new URL(d.endpoint).host, since: iso(Number(d.created_at)), renewedAt: iso(Number(d.updated_at)) })),
    },
  };
}

/** The README.txt of the zip: what each file holds, in plain words. */
export function exportReadme(username: string, now: Date): string {
  return `Your data from Kruh
===================

This archive holds the data of the account "${username}", as it was on ${now.toISOString()} (UTC).
Every .json file is plain text in the JSON format: any text editor opens it, and so does any
programming language. Times are written in UTC, like 2025-01-31T12:00:00.000Z.

account.json
  Your account: id, username, email address, bio, language of the app and of emails, when the
  account was created, whether you sign in with Google, and where your profile picture is in
  this archive (null when you never uploaded one).

posts.json
  Every post you wrote, oldest first: its text, when you wrote it, the post it replies to (by id),
  the groups it was posted in, the people it mentions, whether it is in a private group, its
  content warning, how many likes and comments it has, and its pictures in this archive. Posts you wrote in private groups
  are here too: they are yours.

comments.json
  Every comment you wrote that you have not deleted, oldest first: its text, when you wrote it,
  the post it belongs to (postId), the comment it answers (parentCommentId, null when it answers
  the post itself), the people it mentions, its likes and replies, and its picture.

likes.json
  The posts ("posts") and comments ("comments") you liked, and when. The liked post or comment is
  included (author, text, time) when you can still read it in Kruh: it is yours, or it is public or
  in a private group you are a member of, and no block stands between you and its author. Otherwise
  only its id is given and "post" or "comment" is null, because what is written in a private group
  is for its members only, and a block keeps each side's words from the other.

follows.json
  "following": the people you follow, since when, and whether you are told of their new posts.
  "followers": the people who follow you, and since when.

groups.json
  The groups you are a member of: name, description, whether the group is private, your role
  (owner, admin or member), when you joined, and how much the group notifies you (all,
  essential or none).

safety.json
  "blocked": the people you blocked, "muted": the people you muted, and "mutedHashtags": the
  hashtags you muted, each with when you did it.

sign-in.json
  "passkeys": the passkeys that sign you in, with the name you gave each, when you added it and
  when it was last used. "pushDevices": the browsers that receive your push notifications, named
  by the push service they use, since when, and when they last renewed. No keys are included.

notification-settings.json
  Your notification switches: true means you are notified of that kind of event.
  follower: new followers; reply: replies to your posts and comments; postFromFollowed: new
  posts of people you follow; postMention: mentions in posts; commentMention: mentions in
  comments; newMember: new members of your groups.

images/
  avatar.jpeg is your profile picture. posts/<post id>-<n>.webp and comments/<comment id>-<n>.webp
  are the pictures you attached to your posts and comments; posts.json and comments.json name them
  ("images"), with the description you gave each one beside it ("imageDescriptions", in the same order).

Posts and comments of other people are not part of this archive, except for the liked ones you
can read as described above.
`;
}

export interface ZipLog {
  warn(obj: unknown, msg: string): void;
}

/**
 * The zip of the account's data as a stream: README.txt first, then the images streamed from
 * storage (one at a time, each once the zip has taken the one before), then the JSON files, each
 * read a page at a time as the zip takes it. An image whose file is missing is left out. A storage
 * or database failure ends the stream with an error, so the download fails rather than look
 * complete; a client that goes away stops the reading.
 *
 * The paths of the images written are kept until the JSON files name them: a zip's directory,
 * which the zip library holds until the end, is a line per file anyway.
 */
export function accountZip(storage: MediaStorage, data: AccountData, now: Date, log: ZipLog): Readable {
  const zip = new ZipFile();
  const output = zip.outputStream as PassThrough;
  let closed = false;
  const gone = new Promise<void>((resolve) => {
    output.once('close', () => {
      closed = true;
      resolve();
    });
  });
  const fail = (err: unknown) => {
    if (closed) return;
    log.warn({ err, userId: data.user.id }, 'the data export failed while it was being sent');
    output.destroy(err instanceof Error ? err : new Error(String(err)));
  };
  zip.on('error', fail);

  zip.addBuffer(Buffer.from(exportReadme(data.user.username, now)), 'README.txt', { mtime: now });

  async function* images(): AsyncGenerator<ImageFile> {
    yield { key: avatarKey('pfp', data.user.id), path: AVATAR_PATH };
    for await (const page of data.postImages()) yield* page.flatMap(postImages);
    for await (const page of data.commentImages()) yield* page.flatMap(commentImages);
  }

  const run = async () => {
    const written = new Set<string>();
    for await (const image of images()) {
      if (closed) return;
      const object = await storage.get(image.key);
      if (!object) continue;
      const source = object.body;
      if (closed) {
        source.destroy();
        return;
      }
      source.once('error', fail);
      // Read on once the zip has taken these bytes (or the answer is gone), so one image at a time is open.
      const taken = Promise.race([new Promise<void>((resolve) => source.once('end', resolve)), gone]);
      // Pictures are compressed already.
      zip.addReadStream(source, image.path, { mtime: object.modified, compress: false, size: object.size });
      await taken;
      if (closed) {
        source.destroy();
        return;
      }
      written.add(image.path);
    }
    for (const [path, value] of Object.entries(jsonFiles(data, written))) {
      const source = Readable.from(jsonFile(value), { objectMode: false });
      source.once('error', fail);
      // The zip reads each file only when its turn comes; a client gone by then leaves the rest unread.
      void gone.then(() => source.destroy());
      zip.addReadStream(source, path, { mtime: now });
    }
    zip.end();
  };
  run().catch(fail);
  return output;
}
