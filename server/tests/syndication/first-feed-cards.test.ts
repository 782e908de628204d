import { describe, expect, it } from 'vitest';
import type { Post } from '#core/api/posts';
import { firstFeedHtml } from '../../src/modules/syndication/first-feed-cards';

/** The server's first feed cards draw a remote account's post as the app's card does. */
describe('first feed cards of remote posts', () => {
  const now = Date.UTC(2026, 10, 27, 12);
  const post = (username: string, remote: Post['remote']): Post => ({
    _id: 'p'.repeat(24),
    text: 'From afar',
    author: { username, pfp: 'u'.repeat(24), pfpUrl: '/media/pfp/u.jpeg?v=1' },
    createdAt: now - 60_000,
    likes: 0,
    liked: false,
    comments: 0,
    replyingTo: null,
    groups: [],
    mentions: [],
    itsme: false,
    adminGroups: [],
    pinnedGroups: [],
    ownedGroups: [],
    bannedGroups: [],
    canReply: false,
    images: 0,
    media: [],
    alts: [],
    contentWarning: null,
    editedAt: null,
    remote,
  });

  it("shows the server after a remote author's name and links the original in a new tab", () => {
    const html = firstFeedHtml({ posts: [post('bob@other.example', { host: 'other.example', url: 'https://other.example/@bob/1?a=1&b="2"' })], hasMore: false }, 'cs', now);
    expect(html).toContain('>bob <span class="remote-host">na other.example</span></a>');
    expect(html).toContain(
      '<a class="text-link remote-original" href="https://other.example/@bob/1?a=1&amp;b=&quot;2&quot;" target="_blank" rel="noopener nofollow ugc" aria-label="Otevřít originál na other.example (v nové kartě)">Otevřít originál</a>',
    );
  });

  it('draws a local post, and a remote one without a web page, with no original', () => {
    const html = firstFeedHtml({ posts: [post('alice', null), post('bob@other.example', { host: 'other.example', url: 'javascript:alert(1)' })], hasMore: false }, 'en', now);
    expect(html).toContain('>alice</a>');
    expect(html).toContain('>bob <span class="remote-host">on other.example</span></a>');
    expect(html).not.toContain('remote-original');
    expect(html).not.toContain('post-shared');
  });

  it('says which community passed a remote post on, above its header, linked to its profile', () => {
    const shared = { ...post('dave@lemmy.example', { host: 'lemmy.example', url: null }), sharedBy: { _id: 'c'.repeat(24), username: 'garden<3@lemmy.example' } };
    const html = firstFeedHtml({ posts: [shared], hasMore: false }, 'en', now);
    expect(html).toContain(
      '<article class="post-card" data-post-id="pppppppppppppppppppppppp"><div class="post-shared">Shared by <a class="text-link" href="/u/garden%3C3%40lemmy.example">garden&lt;3 <span class="remote-host">on lemmy.example</span></a></div><header',
    );
    expect(firstFeedHtml({ posts: [shared], hasMore: false }, 'cs', now)).toContain('<div class="post-shared">Sdílí <a');
  });
});
