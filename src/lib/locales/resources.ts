import type account from '../../../locales/en/account.json';
import type auth from '../../../locales/en/auth.json';
import type comments from '../../../locales/en/comments.json';
import type common from '../../../locales/en/common.json';
import type compose from '../../../locales/en/compose.json';
import type editor from '../../../locales/en/editor.json';
import type edits from '../../../locales/en/edits.json';
import type error from '../../../locales/en/error.json';
import type feed from '../../../locales/en/feed.json';
import type gallery from '../../../locales/en/gallery.json';
import type gifs from '../../../locales/en/gifs.json';
import type groups from '../../../locales/en/groups.json';
import type hashtag from '../../../locales/en/hashtag.json';
import type info from '../../../locales/en/info.json';
import type instance from '../../../locales/en/instance.json';
import type links from '../../../locales/en/links.json';
import type moderation from '../../../locales/en/moderation.json';
import type notifications from '../../../locales/en/notifications.json';
import type oauth from '../../../locales/en/oauth.json';
import type post from '../../../locales/en/post.json';
import type postPage from '../../../locales/en/postPage.json';
import type profile from '../../../locales/en/profile.json';
import type safety from '../../../locales/en/safety.json';
import type search from '../../../locales/en/search.json';

/**
 * The shape of every namespace, read from the English catalogues (the test of the catalogues keeps
 * Czech to the same keys), so a key no catalogue has is a type error where `t` is called.
 */
export interface Resources {
  account: typeof account;
  auth: typeof auth;
  comments: typeof comments;
  common: typeof common;
  compose: typeof compose;
  editor: typeof editor;
  edits: typeof edits;
  error: typeof error;
  feed: typeof feed;
  gallery: typeof gallery;
  gifs: typeof gifs;
  groups: typeof groups;
  hashtag: typeof hashtag;
  info: typeof info;
  instance: typeof instance;
  links: typeof links;
  moderation: typeof moderation;
  notifications: typeof notifications;
  oauth: typeof oauth;
  post: typeof post;
  postPage: typeof postPage;
  profile: typeof profile;
  safety: typeof safety;
  search: typeof search;
}
