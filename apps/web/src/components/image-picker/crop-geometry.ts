// The crop's geometry (decision 042), apart from the dialog so that it loads and tests alone.

export type Crop = { zoom: number; x: number; y: number };

/**
 * The crop area on screen (CSS pixels) and how the image fills it: 'cover' (the avatar: the frame
 * always covered, zoom 1 fills it by the image's shorter side), 'contain' (a logo: zoom 1 shows
 * the whole image inside the frame; what the frame shows of it is sent, never empty margins).
 * `output`: the longest side, in pixels, of the image sent (the API resizes it again).
 */
export type CropFrame = { viewWidth: number; viewHeight: number; fit: 'cover' | 'contain'; output: number; round?: boolean };

/** The avatar's: a 280 px square shown round, sent as 512 px. */
export const AVATAR_FRAME: CropFrame = { viewWidth: 280, viewHeight: 280, fit: 'cover', output: 512, round: true };
/** A logo's: a 2 : 1 box like the API's 512 × 256, sent at twice that at most. */
export const LOGO_FRAME: CropFrame = { viewWidth: 320, viewHeight: 160, fit: 'contain', output: 1024 };

/** The image's drawn size and top-left corner in the frame, the offset kept within bounds. */
export function placeInFrame(width: number, height: number, crop: Crop, frame: CropFrame) {
  const { viewWidth, viewHeight } = frame;
  const fitScale = frame.fit === 'cover' ? Math.max(viewWidth / width, viewHeight / height) : Math.min(viewWidth / width, viewHeight / height);
  const scale = fitScale * crop.zoom;
  const w = width * scale;
  const h = height * scale;
  // A side larger than the frame moves within it; a smaller one stays centred.
  const maxX = Math.max(0, (w - viewWidth) / 2);
  const maxY = Math.max(0, (h - viewHeight) / 2);
  const x = Math.max(-maxX, Math.min(maxX, crop.x));
  const y = Math.max(-maxY, Math.min(maxY, crop.y));
  return { scale, w, h, x, y, left: viewWidth / 2 - w / 2 + x, top: viewHeight / 2 - h / 2 + y };
}

/**
 * What is sent: the part of the image the frame shows (in the image's own pixels) and the size it
 * is drawn at, its longest side frame.output (a logo: at most), its ratio that of the visible part.
 */
export function cropFrame(at: ReturnType<typeof placeInFrame>, frame: CropFrame) {
  const left = Math.max(0, at.left);
  const top = Math.max(0, at.top);
  const right = Math.min(frame.viewWidth, at.left + at.w);
  const bottom = Math.min(frame.viewHeight, at.top + at.h);
  const visibleWidth = right - left;
  const visibleHeight = bottom - top;
  const sx = (left - at.left) / at.scale;
  const sy = (top - at.top) / at.scale;
  const sw = visibleWidth / at.scale;
  const sh = visibleHeight / at.scale;
  // The avatar's square is always sent at frame.output; a logo never beyond its own pixels.
  const toOutput = frame.output / Math.max(sw, sh);
  const factor = frame.fit === 'cover' ? toOutput : Math.min(1, toOutput);
  return { sx, sy, sw, sh, outWidth: Math.max(1, Math.round(sw * factor)), outHeight: Math.max(1, Math.round(sh * factor)) };
}
