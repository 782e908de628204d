import '../../test/setup';
import { File as NodeFile } from 'node:buffer';
import { beforeEach, describe, expect, it } from 'vitest';
import { useTestFiles } from '../../test/files';
import { keepShare, readShareForm, sharedText, takeShare } from './shared-items';

/** A form as the system posts it: Node's FormData (jsdom's would not take Node's Files). */
async function shareForm(fields: Record<string, string>, files: File[] = []): Promise<FormData> {
  const NodeFormData = (await new Response(new URLSearchParams()).formData()).constructor as typeof FormData;
  const form = new NodeFormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const file of files) form.append('images', file);
  return form;
}
beforeEach(() => {
  useTestFiles();
});

describe('the text of a share', () => {
  it('joins title, text and link on their own lines', () => {
    expect(sharedText('Spring fair', 'Come along on Saturday', 'https://example.com/fair')).toBe(
      'Spring fair\nCome along on Saturday\nhttps://example.com/fair',
    );
  });

  it('writes nothing twice: a link inside the text, a title the text repeats, blanks', () => {
    expect(sharedText('', 'Look https://example.com/a', 'https://example.com/a')).toBe('Look https://example.com/a');
    expect(sharedText('Look', 'Look at this', '')).toBe('Look at this');
    expect(sharedText('Look at this', 'Look at this', ' ')).toBe('Look at this');
    expect(sharedText(' ', '', '')).toBe('');
  });
});

describe('the form of a share', () => {
  it('keeps the text and the images, skipping empty file fields', async () => {
    const photo = new NodeFile(['png'], 'a.png', { type: 'image/png' }) as unknown as File;
    const empty = new NodeFile([], '', { type: 'application/octet-stream' }) as unknown as File;
    const item = readShareForm(await shareForm({ title: '', text: 'Hello', url: 'https://example.com' }, [photo, empty]));
    expect(item.text).toBe('Hello\nhttps://example.com');
    expect(item.images.map((i) => i.name)).toEqual(['a.png']);
  });

  it('keeps at most ten files, however many are posted', async () => {
    const files = Array.from({ length: 14 }, (_, i) => new NodeFile(['x'], `${i}.png`, { type: 'image/png' }) as unknown as File);
    expect(readShareForm(await shareForm({}, files)).images).toHaveLength(10);
  });
});

describe('a waiting share', () => {
  it('is taken once, and a newer share replaces one never opened', async () => {
    await keepShare({ text: 'first', images: [] });
    await keepShare({ text: 'second', images: [{ blob: new NodeFile(['x'], 'b.png', { type: 'image/png' }) as unknown as Blob, name: 'b.png' }] });
    const taken = await takeShare();
    expect(taken?.text).toBe('second');
    expect(taken?.images.map((i) => i.name)).toEqual(['b.png']);
    expect(await takeShare()).toBeUndefined();
  });
});
