import { describe, expect, it } from 'vitest';
import { LIMITS } from '#core/limits';
import { lineCount, storedLength } from '#core/text';
import { clipText, htmlToText, remoteAlt, remoteContentWarning, remoteText } from '../../src/modules/remote/remote-text';

/** Remote HTML read into the plain text Kruh stores: nothing of the markup survives, only what a reader sees. */

const LOCAL = 'https://kruh.example';

describe('remote HTML as text', () => {
  it('turns paragraphs into blank lines and breaks into line breaks', () => {
    expect(htmlToText('<p>one<br>two<br/>three</p><p>four</p>')).toBe('one\ntwo\nthree\n\nfour');
  });

  it('drops scripts and styles with their content', () => {
    expect(htmlToText('<p>hi<script>alert("x")</script><style>p{}</style> there</p>')).toBe('hi there');
  });

  it('drops event attributes and every other tag but keeps their text', () => {
    const text = htmlToText('<p onclick="steal()"><b onmouseover="x()">bold</b> <img src=x onerror="alert(1)">and <i><u>nested <em>deep</em></u></i></p>');
    expect(text).toBe('bold and nested deep');
    expect(text).not.toMatch(/onclick|onerror|steal|alert|</);
  });

  it('decodes entities once, never into markup', () => {
    expect(htmlToText('<p>a &amp; b &lt;script&gt; &quot;q&quot; &#39;s&#39; caf&eacute; &amp;lt;</p>')).toBe('a & b <script> "q" \'s\' café &lt;');
  });

  it('keeps a link as its text, with the parts Mastodon hides, so a shortened address reads whole', () => {
    const html =
      '<p>see <a href="https://example.com/a/very/long/path" rel="nofollow noopener" target="_blank"><span class="invisible">https://</span><span class="ellipsis">example.com/a/very</span><span class="invisible">/long/path</span></a> now</p>';
    expect(htmlToText(html)).toBe('see https://example.com/a/very/long/path now');
  });

  it('writes a mention of someone elsewhere with their host and a local one as a local mention', () => {
    const html =
      '<p><span class="h-card"><a href="https://mastodon.example/@bob" class="u-url mention">@<span>bob</span></a></span> and <span class="h-card"><a href="https://kruh.example/u/alice" class="u-url mention">@<span>alice</span></a></span></p>';
    expect(htmlToText(html, LOCAL)).toBe('@bob@mastodon.example and @alice');
  });

  it('reads a host in any of its spellings as the same host', () => {
    const html =
      '<p><a href="https://KRUH.example./u/alice" class="u-url mention">@alice</a> and <a href="https://Mastodon.Example./@bob" class="u-url mention">@bob</a></p>';
    expect(htmlToText(html, LOCAL)).toBe('@alice and @bob@mastodon.example');
  });

  it('keeps a mention already written with its host, and a hashtag as written', () => {
    const html = '<p><a href="https://misskey.example/@carol" class="u-url mention">@carol@misskey.example</a> <a href="https://m.example/tags/cats" class="mention hashtag" rel="tag">#<span>cats</span></a></p>';
    expect(htmlToText(html, LOCAL)).toBe('@carol@misskey.example #cats');
  });

  it('collapses the source whitespace as a browser does', () => {
    expect(htmlToText('<p>one\n   two</p>\n\n<p>\n three </p>')).toBe('one two\n\nthree');
  });

  it('reads plain text as itself', () => {
    expect(htmlToText('just text')).toBe('just text');
  });

  it('clips to the post limits, marking the cut', () => {
    const long = remoteText(`<p>${'x'.repeat(LIMITS.textMaxLength + 50)}</p>`);
    expect(storedLength(long)).toBe(LIMITS.textMaxLength);
    expect(long.endsWith('…')).toBe(true);
    const tall = remoteText(Array.from({ length: LIMITS.textMaxLines + 5 }, (_, i) => `line ${i}`).join('<br>'));
    expect(lineCount(tall)).toBe(LIMITS.textMaxLines);
    expect(tall.endsWith('…')).toBe(true);
    expect(clipText('short')).toBe('short');
  });

  it('makes a content warning one plain line within its limit, and none of an empty one', () => {
    expect(remoteContentWarning('<p>spoilers &amp;\nmore</p>')).toBe('spoilers & more');
    expect(remoteContentWarning('')).toBeNull();
    expect(remoteContentWarning(null)).toBeNull();
    expect(storedLength(remoteContentWarning('w'.repeat(300))!)).toBe(LIMITS.contentWarningMaxLength);
  });

  it('keeps a description within its limit', () => {
    expect(remoteAlt('a  cat\non a mat')).toBe('a cat on a mat');
    expect(storedLength(remoteAlt('d'.repeat(LIMITS.imageAltMaxLength * 2)))).toBe(LIMITS.imageAltMaxLength);
    expect(remoteAlt(null)).toBe('');
  });
});
