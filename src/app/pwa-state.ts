/** Whether a new app version waits to be activated; set by the service worker registration. */
export interface UpdateState {
  needRefresh: boolean;
  reload: () => void;
  dismiss: () => void;
}

const listeners = new Set<() => void>();
const idle: UpdateState = { needRefresh: false, reload: () => undefined, dismiss: () => undefined };
let state: UpdateState = idle;

export function setUpdateAvailable(activate: () => Promise<void> | void): void {
  state = {
    needRefresh: true,
    reload: () => void activate(),
    dismiss: () => {
      state = idle;
      for (const listener of listeners) listener();
    },
  };
  for (const listener of listeners) listener();
}

export const getUpdateState = (): UpdateState => state;

export function subscribeUpdate(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
