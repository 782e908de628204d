import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { type Config, LOCAL_MEDIA_FOLDER } from '../config.js';
import { S3MediaStorage } from '../lib/s3-storage.js';
import { LocalMediaStorage, type MediaStorage, MissingMediaStoreError } from '../lib/storage.js';

declare module 'fastify' {
  interface FastifyInstance {
    storage: MediaStorage;
  }
}

/** The store MEDIA_STORAGE chooses: a bucket, or the media folder in the data dir. */
export function storageOf(config: Pick<Config, 'dataDir' | 'mediaStorage'>): MediaStorage {
  const settings = config.mediaStorage;
  return settings.kind === 's3' ? new S3MediaStorage(settings) : new LocalMediaStorage(join(config.dataDir, LOCAL_MEDIA_FOLDER));
}

export const storagePlugin = fp(
  async (app: FastifyInstance, opts: { storage?: MediaStorage }) => {
    const storage = opts.storage ?? storageOf(app.config);
    app.decorate('storage', storage);
    // Told at start rather than at the first upload. A store that is away is not fatal, as
    // everything but media still works meanwhile and it may well come back; a bucket that does not
    // exist never comes by itself, so the start fails and says which.
    app.addHook('onReady', async () => {
      await storage.ready().catch((err: unknown) => {
        if (err instanceof MissingMediaStoreError) throw err;
        app.log.error({ err }, 'media storage does not answer');
      });
    });
    if (!opts.storage) app.addHook('onClose', async () => storage.close?.());
  },
  { name: 'storage', dependencies: ['database'] },
);
