import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { AppError } from '../../errors.js';
import { limited, loadSharp } from './sharp.js';
import type { ObjectStorage, StoredObject } from '../storage/storage.js';

/**
 * Images kept as public WebP files at a versioned URL (decision 042): a user's avatar, an
 * organization's or an environment's logo. One owner (a uuid) has at most one image in force; its
 * URL holds a random version that changes with each image, so a browser may keep it for good and
 * an older version answers 404. Feature code says where the URL points, where the file is kept and
 * what shape it takes; the upload, resize, replacement and serving are done here.
 */

export const NOT_AN_IMAGE_MESSAGE = 'Ce fichier n’est pas une image lisible : choisissez une photo JPEG, PNG ou WebP.';
export const TOO_MANY_PIXELS_MESSAGE = 'L’image a trop de pixels : choisissez-en une plus petite.';
/** « L’image dépasse 5 Mo : choisissez-en une plus légère. » */
export const imageTooLargeMessage = (maxBytes: number) => `L’image dépasse ${maxBytes / 1024 / 1024} Mo : choisissez-en une plus légère.`;

/** Images larger than this (in pixels) are not decoded: a decompression bomb is refused. */
const MAX_INPUT_PIXELS = 40_000_000;
const ACCEPTED_FORMATS = new Set(['jpeg', 'png', 'webp']);

/**
 * The kept shape: 'cover' fills the box exactly (the avatar's square, centre-cropped if the client
 * did not crop); 'inside' fits the image inside the box, its ratio kept, never enlarged, its
 * transparency kept (a logo).
 */
export type ImageShape = { width: number; height: number; fit: 'cover' | 'inside' };

/** Decodes, turns as its EXIF says and resizes an uploaded image to a WebP of this shape; 415 when it is not a JPEG, PNG or WebP. */
export async function resizeToWebp(input: Buffer, shape: ImageShape): Promise<Buffer> {
  const sharp = await loadSharp();
  return limited(async () => {
    try {
      const image = sharp(input, { limitInputPixels: MAX_INPUT_PIXELS });
      const { format } = await image.metadata();
      if (!format || !ACCEPTED_FORMATS.has(format)) throw new AppError(415, NOT_AN_IMAGE_MESSAGE);
      const resized = image.rotate().resize({ width: shape.width, height: shape.height, fit: shape.fit, withoutEnlargement: shape.fit === 'inside' });
      // WebP keeps the alpha channel of a PNG or WebP logo; 'lossless alpha' keeps its edges clean.
      return await resized.webp({ quality: 82, alphaQuality: 100 }).toBuffer();
    } catch (error) {
      if (error instanceof AppError) throw error;
      const reason = error instanceof Error ? error.message : '';
      if (/pixel limit/i.test(reason)) throw new AppError(413, TOO_MANY_PIXELS_MESSAGE);
      throw new AppError(415, NOT_AN_IMAGE_MESSAGE);
    }
  });
}

const VERSION_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const VERSION_LENGTH = 16;

/**
 * A new image's version: 16 random letters and digits (≈ 95 bits). Not base64url, whose '-' and
 * '_' may begin it: a storage key's segment starts with a letter or digit (assertValidKey), and 1
 * upload in 32 failed. Bytes past 247 are dropped so each character is equally likely.
 */
export function newImageVersion(): string {
  let version = '';
  while (version.length < VERSION_LENGTH) {
    for (const byte of randomBytes(VERSION_LENGTH * 2)) {
      if (byte < 248 && version.length < VERSION_LENGTH) version += VERSION_ALPHABET[byte % VERSION_ALPHABET.length];
    }
  }
  return version;
}

export type PublicImageKind = {
  /** The public URL's folder for an owner, ending in '/': `/api/user/<uuid>/avatar/`. */
  urlPrefix: (owner: string) => string;
  /** The storage folder for an owner, without a trailing '/': `avatars/<uuid>`. */
  folder: (owner: string) => string;
  shape: ImageShape;
};

export type PublicImages = ReturnType<typeof publicImages>;

export function publicImages(kind: PublicImageKind) {
  const urlOf = (owner: string, version: string) => `${kind.urlPrefix(owner)}${version}`;
  const keyOf = (owner: string, version: string) => `${kind.folder(owner)}/${version}.webp`;
  /** The stored file of an URL this kind made for this owner (null for another URL: a seeded one, say). */
  const keyOfUrl = (owner: string, url: string | null | undefined) => {
    const prefix = kind.urlPrefix(owner);
    return url?.startsWith(prefix) ? keyOf(owner, url.slice(prefix.length)) : null;
  };

  /** Removes the file of a former URL (after its row stopped pointing at it); a failure only leaves a file behind. */
  async function discard(storage: ObjectStorage, owner: string, url: string | null | undefined): Promise<void> {
    const key = keyOfUrl(owner, url);
    if (key) await storage.delete(key).catch(() => undefined);
  }

  return {
    urlOf,
    keyOfUrl,
    discard,

    /**
     * Resizes the image, stores it under a new version, then lets `swap` write its URL in the
     * owner's row (in its own transaction, answering the URL it replaced). If `swap` fails the new
     * file goes; once it succeeds the former file goes. The answer is `swap`'s.
     */
    async replace<T>(storage: ObjectStorage, owner: string, input: Buffer, swap: (url: string) => Promise<{ previous: string | null; result: T }>): Promise<T> {
      const image = await resizeToWebp(input, kind.shape);
      const version = newImageVersion();
      const key = keyOf(owner, version);
      await storage.put(key, Readable.from([image]), { maxBytes: image.length });
      let swapped: { previous: string | null; result: T };
      try {
        swapped = await swap(urlOf(owner, version));
      } catch (error) {
        await storage.delete(key);
        throw error;
      }
      await discard(storage, owner, swapped.previous);
      return swapped.result;
    },

    /** The bytes of the image in force; `current` is the URL the owner's row holds (another version: null, a 404 to the caller). */
    async open(storage: ObjectStorage, owner: string, version: string, current: string | null | undefined): Promise<StoredObject | null> {
      if (!current || current !== urlOf(owner, version)) return null;
      return storage.get(keyOf(owner, version));
    },
  };
}
