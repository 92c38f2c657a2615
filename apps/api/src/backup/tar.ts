/**
 * The few lines of POSIX tar (ustar) a backup needs: a handful of regular files, written and read
 * whole in memory. A backup stays a plain `.tar` anyone can inspect with `tar tvf`.
 */

export type TarEntry = { name: string; data: Uint8Array; mtime?: Date };

const BLOCK = 512;
// The size field holds 11 octal digits.
const MAX_ENTRY_SIZE = 8 ** 11 - 1;

function writeString(header: Buffer, offset: number, length: number, value: string) {
  header.write(value, offset, Math.min(length, Buffer.byteLength(value)), 'utf8');
}

function writeOctal(header: Buffer, offset: number, length: number, value: number) {
  writeString(header, offset, length, `${value.toString(8).padStart(length - 1, '0')}\0`);
}

function checksum(header: Buffer): number {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : header[i]!;
  return sum;
}

export function writeTar(entries: TarEntry[]): Buffer {
  const parts: Buffer[] = [];
  for (const entry of entries) {
    if (Buffer.byteLength(entry.name) > 100) throw new Error(`Nom trop long pour l'archive : ${entry.name}`);
    if (entry.data.byteLength > MAX_ENTRY_SIZE) throw new Error(`Fichier trop gros pour l'archive : ${entry.name}`);
    const header = Buffer.alloc(BLOCK);
    writeString(header, 0, 100, entry.name);
    writeOctal(header, 100, 8, 0o600);
    writeOctal(header, 108, 8, 0);
    writeOctal(header, 116, 8, 0);
    writeOctal(header, 124, 12, entry.data.byteLength);
    writeOctal(header, 136, 12, Math.floor((entry.mtime ?? new Date()).getTime() / 1000));
    header.write('0', 156);
    writeString(header, 257, 6, 'ustar\0');
    writeString(header, 263, 2, '00');
    writeString(header, 148, 8, `${checksum(header).toString(8).padStart(6, '0')}\0 `);
    parts.push(header, Buffer.from(entry.data.buffer, entry.data.byteOffset, entry.data.byteLength));
    const padding = (BLOCK - (entry.data.byteLength % BLOCK)) % BLOCK;
    if (padding) parts.push(Buffer.alloc(padding));
  }
  parts.push(Buffer.alloc(BLOCK * 2));
  return Buffer.concat(parts);
}

function readString(buffer: Buffer, offset: number, length: number): string {
  const raw = buffer.subarray(offset, offset + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end === -1 ? length : end).toString('utf8');
}

/** Regular files of a ustar archive; throws on anything truncated or whose checksum is wrong. */
export function readTar(buffer: Buffer): TarEntry[] {
  const entries: TarEntry[] = [];
  let offset = 0;
  while (offset + BLOCK <= buffer.length) {
    const header = buffer.subarray(offset, offset + BLOCK);
    if (header.every((byte) => byte === 0)) return entries;
    if (readString(header, 257, 5) !== 'ustar') throw new Error('en-tête tar inconnu');
    if (Number.parseInt(readString(header, 148, 8).trim(), 8) !== checksum(header)) throw new Error('somme de contrôle tar fausse');
    const size = Number.parseInt(readString(header, 124, 12).trim() || '0', 8);
    const start = offset + BLOCK;
    if (start + size > buffer.length) throw new Error('archive tronquée');
    const type = readString(header, 156, 1);
    if (type === '0' || type === '') {
      const prefix = readString(header, 345, 155);
      const name = readString(header, 0, 100);
      entries.push({
        name: prefix ? `${prefix}/${name}` : name,
        data: buffer.subarray(start, start + size),
        mtime: new Date(Number.parseInt(readString(header, 136, 12).trim() || '0', 8) * 1000),
      });
    }
    offset = start + Math.ceil(size / BLOCK) * BLOCK;
  }
  throw new Error('archive tronquée (fin manquante)');
}
