import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { afterAll, beforeAll } from 'vitest';

/** Credentials s3rver checks signatures with. */
const KEY = 'S3RVER';

export interface TestS3 {
  endpoint: string;
  bucket: string;
  /** The settings that point an app at this bucket (MEDIA_STORAGE=s3 and the rest). */
  env: Record<string, string>;
  client: S3Client;
  close(): Promise<void>;
}

/**
 * A real S3 protocol server over HTTP on a port of its own, its objects in a temp folder, with one empty
 * bucket: what the S3 media storage is tested against.
 */
export async function startS3(bucket = 'kruh-media'): Promise<TestS3> {
  const directory = mkdtempSync(join(tmpdir(), 'kruh-s3-'));
  // Port 0: the system gives the listening socket a free port itself, so files starting their own
  // server side by side cannot pick the same one.
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: KEY, secretAccessKey: KEY },
  });
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  const env = {
    MEDIA_STORAGE: 's3',
    S3_ENDPOINT: endpoint,
    S3_BUCKET: bucket,
    S3_REGION: 'us-east-1',
    S3_ACCESS_KEY_ID: KEY,
    S3_SECRET_ACCESS_KEY: KEY,
    S3_FORCE_PATH_STYLE: 'true',
  };
  return {
    endpoint,
    bucket,
    env,
    client,
    async close() {
      client.destroy();
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** The S3 server of one describe block (or file): started before its tests, stopped after them. */
export function useS3(bucket?: string): { readonly s3: TestS3 } {
  let current: TestS3 | undefined;
  beforeAll(async () => {
    current = await startS3(bucket);
  });
  afterAll(async () => {
    await current?.close();
  });
  return {
    get s3() {
      if (!current) throw new Error('the S3 server starts in beforeAll: use it inside a test or a hook');
      return current;
    },
  };
}
