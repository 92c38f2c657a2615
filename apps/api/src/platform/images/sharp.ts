import type SharpModule from 'sharp';

// sharp for every image the API makes (decision 042): the documents' thumbnails, the avatars and
// the logos share one loader and one limit of images decoded at once by this process.

/** Images decoded at once by this process: decoding a photo takes memory and a core. */
const MAX_CONCURRENT = 2;

let running = 0;
const waiting: (() => void)[] = [];

export async function limited<T>(fn: () => Promise<T>): Promise<T> {
  // A finished one hands its slot straight to the next waiting: never more than MAX_CONCURRENT.
  if (running >= MAX_CONCURRENT) await new Promise<void>((resolve) => waiting.push(resolve));
  else running++;
  try {
    return await fn();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

type Sharp = typeof SharpModule;
let sharpModule: Promise<Sharp> | undefined;

/** sharp is loaded at the first image, not at boot; one libvips thread per image, no cache. */
export function loadSharp(): Promise<Sharp> {
  sharpModule ??= import('sharp').then(({ default: sharp }) => {
    sharp.cache(false);
    sharp.concurrency(1);
    return sharp;
  });
  return sharpModule;
}

