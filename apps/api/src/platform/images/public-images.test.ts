import { describe, expect, it } from 'vitest';
import { assertValidKey } from '../storage/storage.js';
import { ImageVersionParamsSchema } from './image-routes.js';
import { newImageVersion } from './public-images.js';

describe('newImageVersion', () => {
  it('makes 16 letters and digits, a valid storage key segment and URL version every time, never twice the same', () => {
    const versions = Array.from({ length: 5000 }, newImageVersion);
    for (const version of versions) {
      expect(version).toMatch(/^[A-Za-z0-9]{16}$/);
      // The key an upload writes (a version beginning with '-' or '_' was refused: a 500, 1 upload in 32).
      expect(() => assertValidKey(`logos/organizations/4ce9208b-3a34-41be-ade1-350fdf1b4248/${version}.webp`)).not.toThrow();
      expect(ImageVersionParamsSchema.safeParse({ uuid: '4ce9208b-3a34-41be-ade1-350fdf1b4248', version }).success).toBe(true);
    }
    expect(new Set(versions).size).toBe(versions.length);
    // Every character of the alphabet turns up (5 000 × 16 draws), the first ones included.
    expect(new Set(versions.map((version) => version[0])).size).toBe(62);
  });
});
