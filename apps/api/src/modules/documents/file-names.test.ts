import { Readable } from 'node:stream';
import { cleanFileName, documentNameIssue, formatFileSize, truncateName } from '@flotte/contract';
import { describe, expect, it } from 'vitest';
import { acceptedType, detectType, nameForMediaType, nameForType, readHead } from './file-types.js';

describe('cleanFileName (an uploaded file’s name)', () => {
  it.each([
    ['../../etc/passwd', 'passwd'],
    ['C:\\Users\\moi\\carte grise.pdf', 'carte grise.pdf'],
    ['rapport\r\nSet-Cookie: x.pdf', 'rapportSet-Cookie_ x.pdf'],
    ['a\u0000b.pdf', 'ab.pdf'],
    ['facture\u202Efdp.exe', 'facturefdp.exe'],
    ['demi\ud800.pdf', 'demi.pdf'],
    ['<script>.pdf', '_script_.pdf'],
    ['  .cache.pdf  ', 'cache.pdf'],
    ['fin...', 'fin'],
    ['CON', '_CON'],
    ['lpt1.txt', '_lpt1.txt'],
    ['...', 'fichier'],
    ['', 'fichier'],
    ['Cafe\u0301.pdf', 'Café.pdf'],
  ])('%j → %j', (raw, clean) => {
    expect(cleanFileName(raw)).toBe(clean);
  });

  it('keeps the extension when it cuts a long name to 255 characters', () => {
    const name = cleanFileName(`${'é'.repeat(300)}.pdf`);
    expect(Array.from(name)).toHaveLength(255);
    expect(name.endsWith('é.pdf')).toBe(true);
    expect(truncateName('abc', 10)).toBe('abc');
  });
});

describe('documentNameIssue (a typed folder or file name)', () => {
  it('accepts an ordinary French name and refuses the others with a French reason', () => {
    expect(documentNameIssue('Cartes grises 2026 – été')).toBeNull();
    expect(documentNameIssue('a/b')).toMatch(/ne peut pas contenir les caractères/);
    expect(documentNameIssue('a\nb')).toMatch(/contrôle/);
    expect(documentNameIssue('.env')).toMatch(/point/);
    expect(documentNameIssue('aux.pdf')).toMatch(/réservé par Windows/);
  });
});

describe('file types from the bytes', () => {
  it('reads the type from the head, not from the name', async () => {
    expect((await detectType(Buffer.from('%PDF-1.7\n'), 'x.jpg'))?.mime).toBe('application/pdf');
    expect(await detectType(Buffer.from('MZ\x90\x00\x03\x00\x00\x00\x04\x00\x00\x00\xff\xff', 'latin1'), 'x.pdf')).toBeUndefined();
    expect((await detectType(Buffer.from('\ufeffnom;ville\nDupont;Lyon\n'), 'a.csv'))?.mime).toBe('text/csv');
    expect(await detectType(Buffer.from('nom\u0000;ville'), 'a.csv')).toBeUndefined();
    expect(await detectType(Buffer.from('  <svg onload=alert(1)>'), 'a.csv')).toBeUndefined();
    expect(await detectType(Buffer.from('a;b\n"<script>alert(1)</script>";c'), 'a.csv')).toBeUndefined();
  });

  it('gives a name its type’s extension', () => {
    const jpeg = acceptedType('image/jpeg')!;
    expect(nameForType('photo.JPG', jpeg)).toBe('photo.JPG');
    expect(nameForType('photo.pdf', jpeg)).toBe('photo.jpg');
    expect(nameForType('scan', jpeg)).toBe('scan.jpg');
    expect(nameForType('v1.2 final', jpeg)).toBe('v1.2 final.jpg');
    expect(nameForMediaType('constat', 'application/pdf')).toBe('constat.pdf');
  });

  it('formats sizes in French units', () => {
    expect(formatFileSize(1)).toBe('1\u00a0octet');
    expect(formatFileSize(1_258_291)).toBe('1,2\u00a0Mo');
    expect(formatFileSize(25 * 1024 * 1024)).toBe('25\u00a0Mo');
    expect(formatFileSize(5 * 1024 ** 3)).toBe('5\u00a0Go');
  });
});

describe('readHead', () => {
  const collect = async (stream: Readable) => {
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  };

  it('gives the head and the whole stream back, for a file longer or shorter than the head, and an empty one', async () => {
    const long = Buffer.alloc(200_000, 7);
    const a = await readHead(Readable.from([long.subarray(0, 1000), long.subarray(1000)]), 4096);
    expect(a.head.length).toBeGreaterThanOrEqual(4096);
    expect((await collect(a.body)).equals(long)).toBe(true);

    const short = Buffer.from('%PDF-1.4 court');
    const b = await readHead(Readable.from([short]), 4096);
    expect(b.head.equals(short)).toBe(true);
    expect((await collect(b.body)).equals(short)).toBe(true);

    const c = await readHead(Readable.from([]), 4096);
    expect(c.head.length).toBe(0);
    expect((await collect(c.body)).length).toBe(0);
  });

  it('passes a stream’s error on', async () => {
    const failing = new Readable({
      read() {
        this.destroy(new Error('coupé'));
      },
    });
    await expect(readHead(failing, 10)).rejects.toThrow('coupé');
  });
});
