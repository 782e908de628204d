import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLIENT_ERROR_KEYS, ERROR_KEYS, isClientErrorKey } from '#core/errors';

const REPO = resolve(import.meta.dirname, '../../..');

/** The server's own code and the contract it answers by: every `.ts` file but the tests and the list itself. */
function sourceText(): string {
  const files = ['server/src', 'core'].flatMap((folder) =>
    readdirSync(join(REPO, folder), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
      .map((file) => join(folder, file)),
  );
  return files.filter((file) => file !== join('core', 'errors.ts')).map((file) => readFileSync(join(REPO, file), 'utf8')).join('\n');
}

/**
 * The catalogue holds only keys someone answers: each key the server may send is named in its code
 * or the contract (as `'key'` or `'error/key'`), so a key nothing sends does not linger in the list
 * and in every language's texts.
 */
describe('the error keys the server may send', () => {
  const text = sourceText();

  it('are each sent somewhere', () => {
    const unsent = ERROR_KEYS.filter((key) => !isClientErrorKey(key) && !text.includes(`'${key}'`) && !text.includes(`error/${key}'`));
    expect(unsent).toEqual([]);
  });

  it("leave out the web app's own keys, which the server never names", () => {
    // As a message; a bare `'key'` is typed out (ServerErrorKey), and may name something else
    // (`post_deleted` is also an info key and an event).
    const sent = CLIENT_ERROR_KEYS.filter((key) => text.includes(`error/${key}`));
    expect(sent).toEqual([]);
  });
});
