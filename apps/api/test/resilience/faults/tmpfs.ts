import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import path from 'node:path';

/**
 * A small disk of its own (tmpfs) mounted on a folder, to fill it: needs root, as the resilience
 * suite runs in CI. unmount() in afterAll even when a test failed (lazy: a process still holding
 * a file there does not keep it mounted).
 */
export type SmallDisk = { dir: string; unmount(): void };

export function mountSmallDisk(dir: string, size: string, mode = 0o700): SmallDisk {
  mkdirSync(dir, { recursive: true, mode });
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=${mode.toString(8)}`, 'tmpfs', dir]);
  let mounted = true;
  return {
    dir,
    unmount() {
      if (!mounted) return;
      mounted = false;
      execFileSync('umount', ['-l', dir]);
    },
  };
}

/** Writes `name` until the disk refuses a byte (ENOSPC): the disk is then full. */
export function fill(dir: string, name = 'remplissage.bin'): number {
  const fd = openSync(path.join(dir, name), 'w');
  const chunk = Buffer.alloc(4096, 0x61);
  let written = 0;
  try {
    for (;;) written += writeSync(fd, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
  return written;
}
