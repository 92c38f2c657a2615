import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { UuidParamsSchema } from '@flotte/contract';
import { AppError, BadRequestError, PayloadTooLargeError } from '../../errors.js';
import type { StoredObject } from '../storage/storage.js';

// The HTTP side of the public images (decision 042): reading the one multipart file of an upload,
// and serving the image without authentication (an <img> sends no bearer token).

export const NO_IMAGE_FILE_MESSAGE = 'Joignez une image (champ multipart « file »).';

/** `/…/{uuid}/…/{version}`: the version is random, 8 to 64 URL-safe characters. */
export const ImageVersionParamsSchema = UuidParamsSchema.extend({
  version: z.string().max(64, { error: 'Version invalide' }).regex(/^[\w-]{8,64}$/, { error: 'Version invalide' }),
});

/** The response of an image's GET in the OpenAPI document. */
export const WEBP_RESPONSE = { description: 'L’image (image/webp).', content: { 'image/webp': { schema: z.string().meta({ format: 'binary' }) } } };

/**
 * The bytes of the multipart field « file » (the plugin registered with a fileSize limit): a
 * missing file is 400, a file past the limit 413 with the feature's message.
 */
export async function readUploadedImage(request: FastifyRequest, tooLargeMessage: string): Promise<Buffer> {
  const missing = () => new BadRequestError(NO_IMAGE_FILE_MESSAGE, [{ path: 'file', message: NO_IMAGE_FILE_MESSAGE }]);
  if (!request.isMultipart()) throw missing();
  try {
    const part = await request.file();
    if (!part) throw missing();
    return await part.toBuffer();
  } catch (error) {
    if (error instanceof AppError) throw error;
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE' || code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT') throw new PayloadTooLargeError(tooLargeMessage);
    throw missing();
  }
}

/** The multipart plugin's limits for one image of at most maxBytes. */
export const imageMultipartLimits = (maxBytes: number) => ({ limits: { fileSize: maxBytes, files: 1, fields: 0, parts: 1 } });

/** Sends the stored WebP: its version is in the URL, so the browser keeps it for good. */
export function sendImage(reply: FastifyReply, image: StoredObject) {
  return reply
    .header('content-type', 'image/webp')
    .header('content-length', String(image.size))
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; sandbox; frame-ancestors 'none'")
    .header('cache-control', 'private, max-age=31536000, immutable')
    .send(image.body as unknown as string);
}
