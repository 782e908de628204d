import '../src/test/setup';
import { File as NodeFile } from 'node:buffer';
import { beforeEach, describe, expect, it } from 'vitest';
import { takeShare } from '../src/lib/share/shared-items';
import { useTestFiles } from '../src/test/files';
import { receiveShare } from './share-target';

const SCOPE = 'https://kruh.test/';

/** The POST another app's share makes: a multipart form, as the manifest asks for. */
async function sharePost(fields: Record<string, string>, files: File[]): Promise<Request> {
  const NodeFormData = (await new Response(new URLSearchParams()).formData()).constructor as typeof FormData;
  const form = new NodeFormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const file of files) form.append('images', file);
  return new Request(`${SCOPE}share`, { method: 'POST', body: form });
}

beforeEach(() => {
  useTestFiles();
});

describe('the share target in the service worker', () => {
  it('keeps the shared text and images and sends the browser to the composer', async () => {
    const photo = new NodeFile(['\x89PNG'], 'garden.png', { type: 'image/png' }) as unknown as File;
    const response = await receiveShare(await sharePost({ title: 'Garden', text: 'Look at the roses', url: 'https://example.com/roses' }, [photo]), SCOPE);

    expect(response.status).toBe(303);
    expect(response.headers.get('Location')).toBe('https://kruh.test/post?shared=1');
    const item = await takeShare();
    expect(item?.text).toBe('Garden\nLook at the roses\nhttps://example.com/roses');
    expect(item?.images).toHaveLength(1);
    expect(item?.images[0]?.name).toBe('garden.png');
    expect(item?.images[0]?.blob.type).toBe('image/png');
    expect(await new Response(item!.images[0]!.blob).text()).toBe('\x89PNG');
  });

  it('still opens the composer, with nothing waiting, when the post is not a form', async () => {
    const response = await receiveShare(new Request(`${SCOPE}share`, { method: 'POST', body: 'nonsense' }), SCOPE);
    expect(response.status).toBe(303);
    expect(response.headers.get('Location')).toBe('https://kruh.test/post?shared=1');
    expect(await takeShare()).toBeUndefined();
  });
});
