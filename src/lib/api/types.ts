/** API shapes the web app reads, as the server's mappers produce them. */
export interface Tag {
  _id: string | null;
  name: string;
}

export interface MentionTag {
  _id: string | null;
  username: string;
}

export interface Post {
  _id: string;
  text: string;
  author: { username: string; pfp: string | null; pfpUrl?: string };
  createdAt: number;
  likes: number;
  liked: boolean;
  comments: number;
  replyingTo: string | null;
  groups: Tag[];
  mentions: MentionTag[];
  itsme: boolean;
  adminGroups: number[];
  pinnedGroups: number[];
  ownedGroups: number[];
  bannedGroups: number[];
  canReply: boolean;
  /** Image URLs (signed for private groups). */
  media?: string[];
  images?: number;
}

export interface Comment {
  _id: string;
  postId: string;
  text: string;
  parent: { _id: string; author: { username: string }; directParent: boolean };
  author: { username: string; pfp: string | null; pfpUrl?: string };
  createdAt: number;
  liked: boolean;
  likes: number;
  comments: number;
  mentions: MentionTag[];
  itsme: boolean;
  media?: string[];
  deleted?: boolean;
}

export interface PostList {
  posts: Post[];
  hasMore: boolean;
}

export interface GroupListItem {
  gp: string;
  /** The group picture at its version (absent from copies stored before the server sent it). */
  gpUrl?: string;
  name: string;
}

export interface GroupList {
  groupList: GroupListItem[];
  logged?: boolean;
  hasMore: boolean;
}

/** A suggestion of GET /search/users and /search/mygroups. */
export interface NameResult {
  _id: string;
  name: string;
}

export interface LikeResult {
  likes: number;
  liked: boolean;
}
