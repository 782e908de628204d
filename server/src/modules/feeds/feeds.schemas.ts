import { ListingQuery } from '../../lib/paging';
import { ErrorReplies } from '../../lib/schemas';
import { PostList } from '../posts/posts.schemas';

/**
 * What every list of posts takes and answers, wherever its route lives (feeds, a hashtag, a
 * profile, a group, search): the listing query, and a page of posts with whether more follow.
 */
export const PostListReplies = { 200: PostList, ...ErrorReplies };
export const PostListSchema = { querystring: ListingQuery, response: PostListReplies };
