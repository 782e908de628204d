import { fireEvent } from '@testing-library/react';
import { File as NodeFile } from 'node:buffer';
import { vi } from 'vitest';
import { useCloneableBlobs } from './local-first';

/**
 * Files as the image pickers get them: Node's File and Blob, which survive the structured clone of
 * the drafts and the outbox in IndexedDB (jsdom's do not), and object URLs for the thumbnails.
 * Unless a test names its URLs, each is new, as a browser's are.
 */
export function useTestFiles(objectUrl: (blob: Blob) => string = () => `blob:${Math.random()}`): void {
  useCloneableBlobs();
  vi.stubGlobal('File', NodeFile);
  Object.assign(URL, { createObjectURL: vi.fn(objectUrl), revokeObjectURL: vi.fn() });
}

/** Chooses `files` in the screen's file input, as a person picking them would. */
export function attachFiles(files: unknown[]): void {
  const input = document.querySelector('input[type="file"]') as HTMLInputElement;
  Object.defineProperty(input, 'files', { configurable: true, value: files });
  fireEvent.change(input);
}

/** A one-byte picture named `name`. */
export const pngFile = (name: string) => new NodeFile(['x'], name, { type: 'image/png' });
