import { beforeAll, describe, expect, it } from 'vitest';
import { JOURNEY_VIEWPORT, text } from './support/journeys';
import { followRequests } from './support/requests-settling';
import { type TestUser, api, createPost, createVerifiedUser, uniqueName } from './support/server';
import { blockingViolations } from './support/accessibility';
import { useE2eSuite } from './support/suite';

const en = (id: string, values?: Record<string, string | number>) => text('en', id, values);

/**
 * A new account's first steps and its last: empty following and groups tabs offer accounts to
 * follow and public groups to join, and deleting the account asks for the password, offers the
 * data first and confirms after.
 */
describe('a newcomer', () => {
  const e2e = useE2eSuite();
  let star: TestUser;
  const group = uniqueName('club');
  const starPost = `Hello from the star ${Date.now()}`;
  const groupPost = `News from the club ${Date.now()}`;

  beforeAll(async () => {
    const { server } = e2e;
    const fan = await createVerifiedUser(server);
    star = await createVerifiedUser(server);
    // A follower puts the star first among the accounts suggested.
    expect((await api(server, 'POST', '/follow', { token: fan.token, body: { following: star.id } })).status).toBe(201);
    await createPost(server, star, { text: starPost });
    const created = await api(server, 'POST', '/group', {
      token: star.token,
      body: { name: group, description: 'Everyone welcome', isPrivate: false, requestJoin: false, everyoneCanPost: true },
    });
    expect(created.status).toBe(201);
    await createPost(server, star, { text: groupPost, groups: [group] });
  });

  it('is offered accounts on the following tab, follows one whose posts then show, and keeps the suggestions until hidden', async () => {
    const newbie = await createVerifiedUser(e2e.server);
    const page = await e2e.visit('/feed/following', { as: newbie, viewport: JOURNEY_VIEWPORT });
    const main = page.getByRole('main');
    const people = main.getByRole('region', { name: en('feed:suggestions.people'), exact: true });
    await people.waitFor();
    // One message for the empty tab: the suggestions' own.
    expect(await main.getByText(en('feed:empty'), { exact: true }).count()).toBe(0);
    await people.getByRole('button', { name: `${en('feed:suggestions.follow')} ${star.username}`, exact: true }).click();
    // The feed loads again with the followed account's post; one follow is not enough to end the suggestions.
    await main.getByText(starPost).waitFor();
    await people.getByRole('button', { name: en('feed:suggestions.following'), exact: true }).waitFor();
    expect(await people.isVisible()).toBe(true);
    expect(await blockingViolations(page, 'following-with-suggestions')).toEqual([]);

    await page.reload();
    await main.getByText(starPost).waitFor();
    await people.waitFor();
    await people.getByRole('button', { name: en('feed:suggestions.hide'), exact: true }).click();
    await people.waitFor({ state: 'detached' });
    // Hidden, they stay hidden: once the screen has all it asked for, they are not on it.
    const requests = followRequests(page);
    await page.reload();
    await main.getByText(starPost).waitFor();
    await requests.settled();
    expect(await people.count()).toBe(0);
    expect(e2e.journey.log.pageErrors).toEqual([]);
  });

  it('is offered public groups on the empty groups tab in one empty state, and joins one, whose posts then show', async () => {
    const newbie = await createVerifiedUser(e2e.server);
    const page = await e2e.visit('/feed/groups', { as: newbie, viewport: JOURNEY_VIEWPORT });
    const main = page.getByRole('main');
    const groups = main.getByRole('region', { name: en('feed:suggestions.groups'), exact: true });
    await groups.waitFor();
    await groups.getByRole('link', { name: en('feed:suggestions.create_group'), exact: true }).waitFor();
    // No other message beside it, and no link to a list that is empty.
    expect(await main.getByText(en('feed:no_groups'), { exact: true }).count()).toBe(0);
    expect(await main.getByText(en('feed:empty'), { exact: true }).count()).toBe(0);
    expect(await main.getByRole('link', { name: en('feed:all_groups'), exact: true }).count()).toBe(0);
    expect(await blockingViolations(page, 'groups-empty')).toEqual([]);
    await groups.getByRole('button', { name: `${en('feed:suggestions.join')} ${group}`, exact: true }).click();
    await main.getByText(groupPost).waitFor();
    await groups.getByRole('button', { name: en('feed:suggestions.joined'), exact: true }).waitFor();
    expect(e2e.journey.log.pageErrors).toEqual([]);
  });

  it('deletes the account only with the password, after offering the data, and says it is done', async () => {
    const { server } = e2e;
    const leaving = await createVerifiedUser(server);
    const page = await e2e.visit('/account', { as: leaving });
    await page.getByRole('main').getByRole('button', { name: en('account:delete.button'), exact: true }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.getByText(en('account:delete.lost.content')).waitFor();

    const saving = page.waitForEvent('download');
    await dialog.getByRole('button', { name: en('account:export.button'), exact: true }).click();
    expect((await saving).suggestedFilename()).toMatch(new RegExp(`^kruh-${leaving.username}-.*\\.zip$`));

    const password = dialog.getByLabel(en('account:delete.password'), { exact: true });
    const confirm = dialog.getByRole('button', { name: en('account:delete.confirm'), exact: true });
    await password.fill('not my password');
    await confirm.click();
    await dialog.getByText(en('error:wrong_password')).waitFor();
    expect((await api(server, 'POST', '/auth/test', { token: leaving.token })).status).toBe(200);

    await password.fill(leaving.password);
    await confirm.click();
    await page.getByRole('heading', { name: en('account:deleted.title'), exact: true }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/account-deleted');
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    expect((await api(server, 'POST', '/auth/login', { body: { username: leaving.username, password: leaving.password } })).status).toBe(400);
    expect(e2e.journey.log.pageErrors).toEqual([]);
  });
});
