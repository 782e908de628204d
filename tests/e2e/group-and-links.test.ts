import type { Locator } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Group, GroupUserListReply } from '#core/api/groups';
import { type TestUser, api, createPost, createVerifiedUser, uniqueName } from './support/server';
import { useE2eSuite } from './support/suite';

/** The browser's own link colours (unvisited blue, visited purple): a link styled by the app shows neither. */
const BROWSER_LINK_COLOURS = ['rgb(0, 0, 238)', 'rgb(85, 26, 139)'];

const linkLook = (link: Locator) =>
  link.evaluate((el) => {
    const style = getComputedStyle(el);
    return { decoration: style.textDecorationLine, colour: style.color };
  });

async function expectQuietLink(link: Locator) {
  const look = await linkLook(link);
  expect(look.decoration).toBe('none');
  expect(BROWSER_LINK_COLOURS).not.toContain(look.colour);
}

/** A link inside a run of text keeps a faint underline (colour alone would not tell it from the text), in the app's colour. */
async function expectInTextLink(link: Locator) {
  const look = await link.evaluate((el) => ({ colour: getComputedStyle(el).color, underline: getComputedStyle(el).textDecorationColor }));
  expect(BROWSER_LINK_COLOURS).not.toContain(look.colour);
  expect(look.underline).not.toBe(look.colour);
}

/** Names and tags as quiet links, mentions in the text, and a group's join requests, ban and a mute on a phone. */
describe('group requests and quiet links', () => {
  const e2e = useE2eSuite();
  let owner: TestUser;
  let outsider: TestUser;
  let friend: TestUser;

  const createGroup = async (requestJoin: boolean) => {
    const name = uniqueName('grp');
    const reply = await api(e2e.server, 'POST', '/group', { token: owner.token, body: { name, description: '', requestJoin } });
    expect(reply.status).toBe(201);
    return name;
  };
  const groupAs = async (user: TestUser, name: string) => (await api<{ group: Group }>(e2e.server, 'GET', `/group/${name}`, { token: user.token })).body.group;

  beforeAll(async () => {
    [owner, outsider, friend] = await Promise.all([createVerifiedUser(e2e.server), createVerifiedUser(e2e.server), createVerifiedUser(e2e.server)]);
  });

  it('links an @name typed in the text there rather than as a tag, and draws names, times and tags as quiet links', async () => {
    const post = await createPost(e2e.server, owner, { text: `Thanks @${friend.username} for #quiet`, mentions: [friend.username, outsider.username] });
    const comment = await api(e2e.server, 'POST', '/comment/', { token: friend.token, body: { text: `@${owner.username} welcome`, parent: post._id, mentions: [owner.username] } });
    expect(comment.status).toBe(201);

    const page = await e2e.visit(`/p/${post._id}`, { as: outsider });
    const card = page.locator(`article[data-post-id="${post._id}"]`);
    const inText = card.locator('.post-text').getByRole('link', { name: `@${friend.username}` });
    await inText.waitFor();
    expect(await inText.getAttribute('href')).toBe(`/u/${encodeURIComponent(friend.username)}`);
    // The mention not in the text stays a tag; the one in the text is not repeated there.
    const tags = card.locator('.post-tags');
    await tags.getByRole('link', { name: `@${outsider.username}` }).waitFor();
    expect(await tags.getByText(`@${friend.username}`).count()).toBe(0);

    await expectQuietLink(card.locator('.post-author'));
    await expectQuietLink(card.locator('.post-time a'));
    await expectQuietLink(tags.getByRole('link'));
    await expectInTextLink(inText);
    await expectInTextLink(card.locator('.post-text').getByRole('link', { name: '#quiet' }));

    const commentItem = page.locator('.comment').filter({ hasText: 'welcome' });
    const commentMention = commentItem.locator('.comment-text').getByRole('link', { name: `@${owner.username}` });
    await commentMention.waitFor();
    expect(await commentItem.locator('.post-tags').count()).toBe(0);
    await expectQuietLink(commentItem.locator('.comment-author'));
    await expectInTextLink(commentMention);
  });

  it('says joining needs approval, and the requester can withdraw the request', async () => {
    const name = await createGroup(true);
    const page = await e2e.visit(`/g/${name}`, { as: outsider });
    const main = page.getByRole('main');
    await main.getByText("Joining needs an admin's approval").waitFor();
    await main.getByRole('button', { name: 'Request to join' }).click();
    await main.getByRole('button', { name: 'Withdraw request' }).click();
    await main.getByRole('button', { name: 'Request to join' }).waitFor();
    await page.getByRole('status').filter({ hasText: 'Your request to join was withdrawn.' }).waitFor();
    expect((await groupAs(outsider, name)).requested).toBe(false);
  });

  it("lists pending requests in the group's settings for an admin to approve", async () => {
    const name = await createGroup(true);
    expect((await api(e2e.server, 'POST', `/group/${name}/request`, { token: friend.token })).status).toBe(200);
    const page = await e2e.visit(`/g/${name}/settings`, { as: owner });
    const requests = page.getByRole('region', { name: 'Requests to join' });
    await requests.getByRole('button', { name: `Approve the request of ${friend.username}` }).click();
    await requests.getByText('Nobody is asking to join').waitFor();
    expect((await groupAs(friend, name)).member).toBe(true);
  });

  it('asks before a ban', async () => {
    const name = await createGroup(false);
    expect((await api(e2e.server, 'PUT', `/group/${name}/join`, { token: outsider.token })).status).toBe(200);
    const page = await e2e.visit(`/g/${name}/members`, { as: owner });
    const ban = page.getByRole('button', { name: `Ban ${outsider.username}` });
    await ban.click();
    const dialog = page.getByRole('alertdialog');
    await dialog.getByText(`Ban ${outsider.username} from &${name}?`).waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect((await groupAs(outsider, name)).member).toBe(true);

    await ban.click();
    await page.getByRole('alertdialog').getByRole('button', { name: `Ban ${outsider.username}` }).click();
    await expect
      .poll(async () => (await api<GroupUserListReply>(e2e.server, 'GET', `/group/${name}/banned`, { token: owner.token })).body.userList.map((u) => u._id))
      .toEqual([outsider.id]);
  });

  it("says a mute worked and shows it on the muted user's profile, with a way back", async () => {
    const page = await e2e.visit(`/u/${encodeURIComponent(friend.username)}`, { as: owner });
    const main = page.getByRole('main');
    await main.getByRole('button', { name: `More about @${friend.username}` }).click();
    await main.getByRole('menuitem', { name: `Mute @${friend.username}` }).click();
    await page.getByRole('status').filter({ hasText: `You muted @${friend.username}` }).waitFor();
    await main.getByText('Muted', { exact: true }).waitFor();
    await main.getByRole('button', { name: `Unmute @${friend.username}` }).click();
    await main.getByText('Muted', { exact: true }).waitFor({ state: 'detached' });
  });
});
