import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { MissingMediaStoreError, type MediaStorage, type ObjectInfo, type StoredObject, checkMediaKey, contentTypeOfKey } from './storage.js';

/** Where the bucket is and how to sign in to it (MEDIA_STORAGE=s3 and the S3_* settings). */
export interface S3Settings {
  /** The service's address; unset for AWS S3 itself, which the SDK finds from the region. */
  endpoint: string | undefined;
  bucket: string;
  region: string;
  /** Both or neither; neither leaves the SDK its own lookup (environment, instance role). */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
  /** `{endpoint}/{bucket}/{key}` rather than `{bucket}.{endpoint}/{key}`: MinIO and Garage want it. */
  forcePathStyle: boolean;
}

/**
 * Bytes sent per part of a multipart upload: the smallest part S3 takes. A put holds at most a few
 * parts in memory however large the stream is; smaller objects go up in one request.
 */
export const S3_PART_BYTES = 5 * 1024 * 1024;

const isNotFound = (err: unknown) =>
  err instanceof S3ServiceException && (err.name === 'NoSuchKey' || err.name === 'NotFound' || err.$metadata.httpStatusCode === 404);

/** S3 answers the ETag in quotes; the contract's tag has none. */
const tagOf = (etag: string | undefined) => (etag ?? '').replace(/^W\//, '').replace(/"/g, '');

/**
 * Media in a bucket of any S3-compatible service (AWS S3, MinIO, Garage, Cloudflare R2). The bucket
 * stays private: every read goes through the server, which checks what the app decides (a private
 * group's signature) before it streams the object on.
 */
export class S3MediaStorage implements MediaStorage {
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly endpoint: string | undefined;

  constructor(settings: S3Settings) {
    this.bucket = settings.bucket;
    this.endpoint = settings.endpoint;
    this.client = new S3Client({
      ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
      region: settings.region,
      forcePathStyle: settings.forcePathStyle,
      ...(settings.credentials ? { credentials: settings.credentials } : {}),
      // Checksums only where the protocol demands them: several S3-compatible services refuse the
      // newer checksum headers the SDK would otherwise add to every upload.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  private info(key: string, answer: { ContentLength?: number; ContentType?: string; ETag?: string; LastModified?: Date }): ObjectInfo {
    return {
      size: answer.ContentLength ?? 0,
      contentType: answer.ContentType ?? contentTypeOfKey(key),
      etag: tagOf(answer.ETag),
      modified: answer.LastModified ?? new Date(0),
    };
  }

  async put(key: string, body: Buffer | Readable, contentType?: string): Promise<void> {
    // One PUT replaces the object whole, so readers never see part of it; a stream is sent in
    // parts as it is read, never gathered first.
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: checkMediaKey(key), Body: body, ContentType: contentType ?? contentTypeOfKey(key) },
      partSize: S3_PART_BYTES,
      queueSize: 2,
    });
    await upload.done();
  }

  async get(key: string): Promise<StoredObject | null> {
    try {
      const answer = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: checkMediaKey(key) }));
      // In Node the body is the response stream itself.
      return { ...this.info(key, answer), body: answer.Body as Readable };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async head(key: string): Promise<ObjectInfo | null> {
    try {
      return this.info(key, await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: checkMediaKey(key) })));
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async remove(keys: string[]): Promise<void> {
    // One request per key rather than a batch delete: callers remove a handful at most, and the
    // batch call's required checksum is where S3-compatible services differ most.
    await Promise.all(
      keys.map((key) => this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: checkMediaKey(key) }))),
    );
  }

  async ready(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
    } catch (err) {
      if (!isNotFound(err) && (err as { name?: unknown }).name !== 'NoSuchBucket') throw err;
      const where = this.endpoint ? ` at ${this.endpoint}` : '';
      throw new MissingMediaStoreError(`S3 bucket ${this.bucket} does not exist${where}: create it, or set S3_BUCKET to one that does`);
    }
  }

  close(): void {
    this.client.destroy();
  }
}
