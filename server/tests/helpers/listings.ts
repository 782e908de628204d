import type { FastifyInstance } from 'fastify';
import type { ListPostIdsParams, PostScope } from '../../src/modules/feeds/feeds.repository';
import { type TestUser, addMember, createFollow, createGroup } from './fixtures';

/** A listing's parameters as `reader` reads it: newest first, all time, the snapshot now, the first page of `fetch` rows. */
export const listingFor = (reader: () => TestUser, fetch: number) =>
  (scope: PostScope, overrides: Partial<ListPostIdsParams> = {}): ListPostIdsParams => ({
    viewerId: reader().id,
    scope,
    sort: 'newest',
    since: 0,
    before: Date.now(),
    offset: 0,
    fetch,
    ...overrides,
  });

/** A private group of `owner` that `reader` belongs to, `reader` following `owner`: its id. */
export async function privateGroupOfFollowed(app: FastifyInstance, owner: TestUser, reader: TestUser): Promise<string> {
  const group = await createGroup(app, owner, { isPrivate: true });
  await addMember(app, group.id, reader);
  await createFollow(app, reader, owner);
  return group.id;
}
