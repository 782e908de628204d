import { describe, expect, it, vi } from 'vitest';
import { CLAIM_MESSAGE, claimIfUncontrolled } from './worker-control';

function containerWith(controller: object | null) {
  const postMessage = vi.fn();
  const container = { controller, ready: Promise.resolve({ active: { postMessage } }) } as unknown as ServiceWorkerContainer;
  return { container, postMessage };
}

describe('claimIfUncontrolled', () => {
  it('asks the active worker to take over a page it does not control', async () => {
    const { container, postMessage } = containerWith(null);
    await claimIfUncontrolled(container);
    expect(postMessage).toHaveBeenCalledWith({ type: CLAIM_MESSAGE });
  });

  it('leaves a controlled page alone', async () => {
    const { container, postMessage } = containerWith({});
    await claimIfUncontrolled(container);
    expect(postMessage).not.toHaveBeenCalled();
  });
});
