import type { FileHandle } from 'node:fs/promises';

/**
 * The few lines of POSIX tar (ustar, plus the pax `path` record) a backup needs, streamed both ways:
 * entries are written one at a time from a stream, and read back by position from the archive
 * file, so neither side ever holds more than one chunk of a file. A backup stays a plain `.tar`
 * anyone can inspect with `tar tvf` or unpack with `tar xf`.
 */

const BLOCK = 512;
/** The size field holds 11 octal digits: one byte short of 8 GiB. */
export const MAX_ENTRY_SIZE = 8 ** 11 - 1;
const CHUNK = 1024 * 1024;

export type TarEntry = {
  name: string;
  size: number;
  mtime: Date;
  /** Where the entry's bytes start in the archive. */
  offset: number;
};

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

function header(name: string, prefix: string, size: number, mtime: Date, type: string): Buffer {
  const block = Buffer.alloc(BLOCK);
  writeString(block, 0, 100, name);
  writeOctal(block, 100, 8, 0o600);
  writeOctal(block, 108, 8, 0);
  writeOctal(block, 116, 8, 0);
  writeOctal(block, 124, 12, size);
  writeOctal(block, 136, 12, Math.max(0, Math.floor(mtime.getTime() / 1000)));
  block.write(type, 156);
  writeString(block, 257, 6, 'ustar\0');
  writeString(block, 263, 2, '00');
  writeString(block, 345, 155, prefix);
  writeString(block, 148, 8, `${checksum(block).toString(8).padStart(6, '0')}\0 `);
  return block;
}

/** name = prefix + '/' + rest with prefix ≤ 155 bytes and rest ≤ 100 bytes, when a '/' allows it. */
function splitUstarName(name: string): { prefix: string; name: string } | null {
  if (Buffer.byteLength(name) <= 100) return { prefix: '', name };
  for (let slash = name.lastIndexOf('/'); slash > 0; slash = name.lastIndexOf('/', slash - 1)) {
    const prefix = name.slice(0, slash);
    const rest = name.slice(slash + 1);
    if (Buffer.byteLength(rest) > 100) return null;
    if (rest && Buffer.byteLength(prefix) <= 155) return { prefix, name: rest };
  }
  return null;
}

/** One pax record, `<length> <key>=<value>\n`, whose length counts its own digits. */
function paxRecord(key: string, value: string): string {
  const body = ` ${key}=${value}\n`;
  let length = Buffer.byteLength(body);
  while (String(length).length + Buffer.byteLength(body) !== length) length = String(length).length + Buffer.byteLength(body);
  return `${length}${body}`;
}

function padding(size: number): Buffer | null {
  const missing = (BLOCK - (size % BLOCK)) % BLOCK;
  return missing ? Buffer.alloc(missing) : null;
}

/** A ustar archive written sequentially into an open file. The caller syncs and closes the file. */
export class TarWriter {
  private position = 0;

  constructor(private readonly out: FileHandle) {}

  /** Bytes written so far. */
  get bytes(): number {
    return this.position;
  }

  private async write(data: Uint8Array): Promise<void> {
    let done = 0;
    while (done < data.byteLength) {
      const { bytesWritten } = await this.out.write(data, done, data.byteLength - done, this.position + done);
      done += bytesWritten;
    }
    this.position += data.byteLength;
  }

  private async writeHeader(name: string, size: number, mtime: Date): Promise<void> {
    if (!Number.isSafeInteger(size) || size < 0) throw new TypeError(`Taille invalide pour ${name} : ${size}`);
    if (size > MAX_ENTRY_SIZE) throw new Error(`${name} ne peut pas entrer dans l'archive : ${size} octets, au-delà de la limite d'une entrée tar (8 Gio).`);
    const split = splitUstarName(name);
    if (!split) {
      // Too long for ustar's two fields: a pax header carries the whole path first.
      const records = Buffer.from(paxRecord('path', name));
      await this.write(header('PaxHeader', '', records.length, mtime, 'x'));
      await this.write(records);
      const pad = padding(records.length);
      if (pad) await this.write(pad);
    }
    await this.write(header(split ? split.name : name.slice(0, 100), split?.prefix ?? '', size, mtime, '0'));
  }

  /** A small entry already in memory. */
  async addBuffer(name: string, data: Uint8Array, mtime = new Date()): Promise<void> {
    await this.writeHeader(name, data.byteLength, mtime);
    await this.write(data);
    const pad = padding(data.byteLength);
    if (pad) await this.write(pad);
  }

  /**
   * An entry of exactly `size` bytes from a stream, written chunk by chunk. A source yielding
   * more or fewer bytes (a file changed while it was read) fails: the archive is then unusable,
   * and the caller removes it.
   */
  async addStream(name: string, size: number, source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>, mtime = new Date()): Promise<void> {
    await this.writeHeader(name, size, mtime);
    let written = 0;
    for await (const chunk of source) {
      if (written + chunk.byteLength > size) throw new Error(`${name} a grandi pendant son archivage (${size} octets attendus).`);
      await this.write(chunk);
      written += chunk.byteLength;
    }
    if (written !== size) throw new Error(`${name} : ${written} octets lus au lieu de ${size} (fichier modifié pendant son archivage).`);
    const pad = padding(size);
    if (pad) await this.write(pad);
  }

  /** The end-of-archive marker: two zero blocks. */
  async finish(): Promise<void> {
    await this.write(Buffer.alloc(BLOCK * 2));
  }
}

function readString(buffer: Buffer, offset: number, length: number): string {
  const raw = buffer.subarray(offset, offset + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end === -1 ? length : end).toString('utf8');
}

function readOctal(buffer: Buffer, offset: number, length: number, what: string): number {
  if (buffer[offset]! & 0x80) throw new Error(`${what} en base 256 (entrée de plus de 8 Gio) non prise en charge`);
  const text = readString(buffer, offset, length).trim();
  if (!/^[0-7]*$/.test(text)) throw new Error(`${what} illisible`);
  return text ? Number.parseInt(text, 8) : 0;
}

function parsePax(data: Buffer): Map<string, string> {
  const records = new Map<string, string>();
  let at = 0;
  while (at < data.length) {
    const space = data.indexOf(0x20, at);
    const length = Number.parseInt(data.subarray(at, space).toString('ascii'), 10);
    if (space === -1 || !Number.isSafeInteger(length) || length <= 0 || at + length > data.length) throw new Error('en-tête pax illisible');
    const record = data.subarray(space + 1, at + length - 1).toString('utf8');
    const equals = record.indexOf('=');
    if (equals === -1) throw new Error('en-tête pax illisible');
    records.set(record.slice(0, equals), record.slice(equals + 1));
    at += length;
  }
  return records;
}

async function readAt(input: FileHandle, length: number, position: number): Promise<Buffer> {
  const buffer = Buffer.allocUnsafe(length);
  let done = 0;
  while (done < length) {
    const { bytesRead } = await input.read(buffer, done, length - done, position + done);
    if (bytesRead === 0) throw new Error('archive tronquée');
    done += bytesRead;
  }
  return buffer;
}

/** Entries larger than this are never read whole (pax headers, long names). */
const MAX_META_ENTRY = 1024 * 1024;

/**
 * The regular files of a ustar archive, in order, read header by header: an entry's bytes are
 * skipped unless the caller reads them (readEntry, entryChunks). Throws on a wrong header
 * checksum, an entry running past the end of the file, or a missing end-of-archive marker.
 * Other entry types (folders, links) are passed over.
 */
export async function* readTarEntries(input: FileHandle): AsyncGenerator<TarEntry> {
  const fileSize = (await input.stat()).size;
  let position = 0;
  let pending: { path?: string; size?: number } = {};
  for (;;) {
    if (position + BLOCK > fileSize) throw new Error('archive tronquée (fin manquante)');
    const block = await readAt(input, BLOCK, position);
    if (block.every((byte) => byte === 0)) return;
    if (readString(block, 257, 5) !== 'ustar') throw new Error('en-tête tar inconnu');
    if (readOctal(block, 148, 8, 'somme de contrôle') !== checksum(block)) throw new Error('somme de contrôle tar fausse');
    const type = readString(block, 156, 1);
    const size = pending.size ?? readOctal(block, 124, 12, 'taille');
    const offset = position + BLOCK;
    if (offset + size > fileSize) throw new Error('archive tronquée');
    position = offset + Math.ceil(size / BLOCK) * BLOCK;

    if (type === 'x' || type === 'L') {
      if (size > MAX_META_ENTRY) throw new Error('en-tête étendu trop grand');
      const data = await readAt(input, size, offset);
      if (type === 'L') pending = { ...pending, path: readString(data, 0, data.length) };
      else {
        const records = parsePax(data);
        const paxSize = records.get('size');
        if (paxSize !== undefined && !/^\d+$/.test(paxSize)) throw new Error('taille pax illisible');
        pending = { path: records.get('path') ?? pending.path, size: paxSize === undefined ? pending.size : Number(paxSize) };
      }
      continue;
    }
    const name = pending.path ?? [readString(block, 345, 155), readString(block, 0, 100)].filter(Boolean).join('/');
    pending = {};
    if (type === '0' || type === '' || type === '7') {
      yield { name, size, mtime: new Date(readOctal(block, 136, 12, 'date') * 1000), offset };
    }
  }
}

/** A small entry's bytes, whole (the manifest, the database dump). */
export async function readEntry(input: FileHandle, entry: TarEntry): Promise<Buffer> {
  return readAt(input, entry.size, entry.offset);
}

/**
 * An entry's bytes in chunks of at most 1 MiB. With `reuse`, every chunk is read into that same
 * buffer: nothing is left for the garbage collector, but each chunk must be consumed (written,
 * hashed) before the next is asked for.
 */
export async function* entryChunks(input: FileHandle, entry: TarEntry, reuse?: Buffer): AsyncGenerator<Buffer> {
  for (let done = 0; done < entry.size; ) {
    const length = Math.min(reuse?.length ?? CHUNK, entry.size - done);
    const buffer = reuse ?? Buffer.allocUnsafe(length);
    const { bytesRead } = await input.read(buffer, 0, length, entry.offset + done);
    if (bytesRead === 0) throw new Error('archive tronquée');
    done += bytesRead;
    yield buffer.subarray(0, bytesRead);
  }
}
