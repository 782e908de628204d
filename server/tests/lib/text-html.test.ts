import { describe, expect, it } from 'vitest';
import { writingHtml } from '../../src/lib/text-html';

/** A writing's HTML is remembered per origin, mention names and text: none of the three may be left out of what it is remembered by. */
describe('a writing as HTML', () => {
  const text = 'Coffee with @bob #morning';

  it('links a mention only when the writing names that user', () => {
    const named = writingHtml('https://a.example', text, ['bob']);
    const unnamed = writingHtml('https://a.example', text, []);
    expect(named).toContain('href="https://a.example/u/bob"');
    expect(unnamed).not.toContain('/u/bob');
    expect(writingHtml('https://a.example', text, ['bob'])).toBe(named);
  });

  it('writes the links of each origin', () => {
    expect(writingHtml('https://a.example', text, ['bob'])).toContain('https://a.example/h/morning');
    expect(writingHtml('https://b.example', text, ['bob'])).toContain('https://b.example/h/morning');
  });

  it('links a remote account to its actor even after the same text was written without it', () => {
    writingHtml('https://a.example', text, ['bob']);
    const remote = writingHtml('https://a.example', text, ['bob'], new Map([['bob', 'https://far.example/users/bob']]));
    expect(remote).toContain('href="https://far.example/users/bob"');
  });

  it('escapes what the author wrote, remembered or not', () => {
    const html = '<script>alert(1)</script> & "quotes"';
    for (let i = 0; i < 2; i++) expect(writingHtml('https://a.example', html, [])).toBe('<p>&#60;script&#62;alert(1)&#60;/script&#62; &#38; &#34;quotes&#34;</p>');
  });
});
