import type { Readable } from 'node:stream';
import { THUMBNAIL_SIZE } from '@flotte/contract';
import { AppError } from '../../errors.js';
import { loadSharp } from '../../platform/images/sharp.js';

/**
 * Thumbnails of the media library's images (issue 14): a small WebP made with sharp (pinned 0.34.5,
 * prebuilt libvips for Node 20), kept in the storage under a key derived from the file's.
 */

/**
 * Where a file's thumbnail is kept: derived from its stored object's key, so that deleting the
 * file for good (purge) deletes it too. Outside `tmp/` and the organizations' own prefixes.
 */
export function thumbnailKeyOf(fileKey: string): string {
  return `thumbnails/${fileKey}.webp`;
}

/** Images larger than this (in pixels) are not decoded: a decompression bomb stays a 422. */
const MAX_INPUT_PIXELS = 60_000_000;
export async function readAll(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const HEIF_TYPES = new Set(['image/heic', 'image/heif']);

/** A small WebP of the image (its longest side THUMBNAIL_SIZE at most, turned as its EXIF says). */
export async function makeThumbnail(input: Buffer, mediaType: string, name: string): Promise<Buffer> {
  const sharp = await loadSharp();
  try {
    return await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS })
      .rotate()
      .resize({ width: THUMBNAIL_SIZE, height: THUMBNAIL_SIZE, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 72 })
      .toBuffer();
  } catch (error) {
    const reason = error instanceof Error ? error.message : '';
    if (/pixel limit/i.test(reason)) throw new AppError(422, `L’image « ${name} » est trop grande pour en faire une miniature : ouvrez-la ou téléchargez-la.`);
    // The prebuilt libvips reads HEIF only with the codecs it ships (AVIF): an iPhone's HEVC photo is not one.
    if (HEIF_TYPES.has(mediaType)) throw new AppError(415, `Pas de miniature pour la photo HEIC « ${name} » : téléchargez-la pour la voir.`);
    throw new AppError(422, `L’image « ${name} » est illisible ou abîmée : pas de miniature possible.`);
  }
}

