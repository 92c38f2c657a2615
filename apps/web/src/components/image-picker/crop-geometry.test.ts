import { describe, expect, it } from 'vitest';
import { AVATAR_FRAME, cropFrame, LOGO_FRAME, placeInFrame } from './crop-geometry';

describe('the logo’s crop (contain, 320 × 160 frame)', () => {
  it('shows a wide logo whole at zoom 1 and sends it whole, its own ratio, never enlarged', () => {
    // 900 × 300 (3 : 1): its width fills the frame, margins above and below.
    const at = placeInFrame(900, 300, { zoom: 1, x: 0, y: 0 }, LOGO_FRAME);
    expect(at.w).toBeCloseTo(320);
    expect(at.h).toBeCloseTo(320 / 3);
    // It cannot be dragged where it already fits: it stays centred.
    const dragged = placeInFrame(900, 300, { zoom: 1, x: 50, y: 40 }, LOGO_FRAME);
    expect(dragged.x).toBe(0);
    expect(dragged.y).toBe(0);
    const region = cropFrame(at, LOGO_FRAME);
    expect(region).toMatchObject({ sx: 0, sy: 0, outWidth: 900, outHeight: 300 });
    expect(region.sw).toBeCloseTo(900);
    expect(region.sh).toBeCloseTo(300);
  });

  it('sends only what the frame shows once zoomed in, at most 1024 px wide', () => {
    const at = placeInFrame(3000, 1000, { zoom: 2, x: 0, y: 0 }, LOGO_FRAME);
    const region = cropFrame(at, LOGO_FRAME);
    // Zoom 2: the frame shows half the width, and its height is the frame's (2 : 1).
    expect(region.sw).toBeCloseTo(1500);
    expect(region.sh).toBeCloseTo(750);
    expect(region.outWidth).toBe(1024);
    expect(region.outHeight).toBe(512);
  });

  it('shows a square emblem whole by its height', () => {
    const at = placeInFrame(400, 400, { zoom: 1, x: 0, y: 0 }, LOGO_FRAME);
    expect(at.h).toBeCloseTo(160);
    expect(cropFrame(at, LOGO_FRAME)).toMatchObject({ outWidth: 400, outHeight: 400 });
  });
});

describe('the avatar’s crop (cover, 280 px square)', () => {
  it('sends the square the frame shows, at 512 px', () => {
    const at = placeInFrame(1200, 800, { zoom: 1, x: 0, y: 0 }, AVATAR_FRAME);
    const region = cropFrame(at, AVATAR_FRAME);
    expect(region.sw).toBeCloseTo(800);
    expect(region.sh).toBeCloseTo(800);
    expect(region.sx).toBeCloseTo(200);
    expect(region).toMatchObject({ outWidth: 512, outHeight: 512 });
  });
});
