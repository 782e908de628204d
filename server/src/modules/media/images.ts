import sharp, { type Metadata } from 'sharp';
import { LIMITS } from '#core/limits';
import { AppError, badRequest } from '../../lib/app-error.js';

/**
 * Image decoding and re-encoding. An upload is judged by decoding it, never by its name or
 * declared type; what is stored is always a fresh encode, so metadata (EXIF, GPS) never survives.
 */

/** Raster formats accepted from users; SVG is excluded (a document, not a picture). */
export const ACCEPTED_FORMATS: ReadonlySet<string> = new Set(['jpeg', 'png', 'webp', 'gif', 'avif', 'heif', 'tiff']);
/** Stored content images are bounded so a huge photo does not cost every reader. */
const MAX_SIDE = 2048;

const decodeOptions = { limitInputPixels: LIMITS.imageMaxPixels, failOn: 'error' } as const;

interface Decoded {
  pages: number;
}

async function inspect(buffer: Buffer): Promise<Decoded> {
  let meta: Metadata;
  try {
    // Only the header is read here, so the pixel limit is checked below, with its own answer.
    meta = await sharp(buffer, { ...decodeOptions, limitInputPixels: false }).metadata();
  } catch {
    throw badRequest('only_images');
  }
  if (!meta.format || !ACCEPTED_FORMATS.has(meta.format) || !meta.width || !meta.height) throw badRequest('only_images');
  const pages = meta.pages ?? 1;
  // Every frame of an animation is decoded, so frames count toward the limit.
  if (meta.width * meta.height * pages > LIMITS.imageMaxPixels) throw new AppError(413, 'image_too_large');
  return { pages };
}

async function encode(run: () => Promise<Buffer>): Promise<Buffer> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof Error && /pixel limit/i.test(err.message)) throw new AppError(413, 'image_too_large');
    throw badRequest('only_images');
  }
}

/** A post or comment image as webp; animations (GIF, animated webp) keep their frames. */
export async function toContentImage(buffer: Buffer): Promise<Buffer> {
  const { pages } = await inspect(buffer);
  const animated = pages > 1;
  return encode(() => {
    let image = sharp(buffer, { ...decodeOptions, animated });
    // Orientation lives in the EXIF that the re-encode drops, so it is applied to the pixels.
    if (!animated) image = image.rotate();
    return image
      .resize({ width: MAX_SIDE, height: MAX_SIDE, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 82, effort: 4 })
      .toBuffer();
  });
}

/** What apps are told of a stored content image: its size in pixels (of one frame) and whether it moves. */
export async function imageFacts(buffer: Buffer): Promise<{ width: number; height: number; animated: boolean }> {
  const { width, height, pages, pageHeight } = await sharp(buffer).metadata();
  const animated = (pages ?? 1) > 1;
  return { width: width ?? 0, height: (animated ? pageHeight : undefined) ?? height ?? 0, animated };
}

/** Whether stored bytes hold an animation (a GIF as the app sends it): more than one frame. */
export async function isAnimation(buffer: Buffer): Promise<boolean> {
  return (await imageFacts(buffer)).animated;
}

/** An avatar: the centred square of the first frame, LIMITS.pfpSize wide, as jpeg. */
export async function toAvatar(buffer: Buffer): Promise<Buffer> {
  await inspect(buffer);
  return encode(() =>
    sharp(buffer, decodeOptions)
      .rotate()
      .resize(LIMITS.pfpSize, LIMITS.pfpSize, { fit: 'cover', position: 'centre' })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 85, mozjpeg: true })
      .toBuffer(),
  );
}

/** The neutral silhouette shown for users and groups without an avatar. */
export async function renderDefaultAvatar(): Promise<Buffer> {
  const size = LIMITS.pfpSize;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 100 100">
    <rect width="100" height="100" fill="#d5d9df"/>
    <circle cx="50" cy="38" r="18" fill="#f4f5f7"/>
    <ellipse cx="50" cy="92" rx="34" ry="28" fill="#f4f5f7"/>
  </svg>`;
  return sharp(Buffer.from(svg)).flatten({ background: '#d5d9df' }).jpeg({ quality: 85 }).toBuffer();
}
