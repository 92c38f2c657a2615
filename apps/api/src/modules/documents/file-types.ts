import { Readable } from 'node:stream';
import { splitExtension, truncateName, DOCUMENT_NAME_MAX } from '@flotte/contract';
import { fileTypeFromBuffer } from 'file-type';

/**
 * What the document management accepts (issue 14), decided from a file's first bytes (file-type),
 * never from its name or the Content-Type its sender wrote. CSV has no signature: a text head
 * (no NUL, no binary control characters, not markup) under a .csv name.
 */
export type AcceptedType = { mime: string; extensions: readonly string[]; label: string; preview: boolean };

const ACCEPTED: readonly AcceptedType[] = [
  { mime: 'application/pdf', extensions: ['pdf'], label: 'PDF', preview: true },
  { mime: 'image/jpeg', extensions: ['jpg', 'jpeg'], label: 'JPEG', preview: true },
  { mime: 'image/png', extensions: ['png'], label: 'PNG', preview: true },
  { mime: 'image/webp', extensions: ['webp'], label: 'WebP', preview: true },
  { mime: 'image/heic', extensions: ['heic'], label: 'HEIC', preview: false },
  { mime: 'image/heif', extensions: ['heif', 'heic'], label: 'HEIF', preview: false },
  { mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', extensions: ['docx'], label: 'Word', preview: false },
  { mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', extensions: ['xlsx'], label: 'Excel', preview: false },
  { mime: 'application/vnd.openxmlformats-officedocument.presentationml.presentation', extensions: ['pptx'], label: 'PowerPoint', preview: false },
  { mime: 'application/vnd.oasis.opendocument.text', extensions: ['odt'], label: 'ODT', preview: false },
  { mime: 'application/vnd.oasis.opendocument.spreadsheet', extensions: ['ods'], label: 'ODS', preview: false },
  { mime: 'application/vnd.oasis.opendocument.presentation', extensions: ['odp'], label: 'ODP', preview: false },
  { mime: 'text/csv', extensions: ['csv'], label: 'CSV', preview: false },
];

const BY_MIME = new Map(ACCEPTED.map((type) => [type.mime, type]));

export const ACCEPTED_TYPES_TEXT = 'PDF, JPEG, PNG, WebP, HEIC, Word, Excel, PowerPoint, OpenDocument (ODT, ODS, ODP) et CSV';

/** How many first bytes are read to decide (office documents are zip files: their first entries). */
export const HEAD_BYTES = 64 * 1024;

export function acceptedType(mime: string): AcceptedType | undefined {
  return BY_MIME.get(mime);
}

/** Images and PDF are shown inline by the preview; anything else is only downloaded. */
export function isPreviewable(mime: string): boolean {
  return acceptedType(mime)?.preview ?? false;
}

// eslint-disable-next-line no-control-regex -- binary control characters are what a text file has none of.
const BINARY = /[\u0000-\u0008\u000e-\u001a\u001c-\u001f]/;
/** Markup a browser would render: a CSV starting with a tag, or holding a script, is not a CSV. */
const MARKUP = /^\s*</;
const DANGEROUS_TAGS = /<\s*(script|html|body|iframe|svg|object|embed|!doctype)\b/i;

function looksLikeCsv(head: Buffer, fileName: string): boolean {
  if (splitExtension(fileName).extension.toLowerCase() !== '.csv' || head.length === 0) return false;
  // latin1 keeps one character per byte: enough to see NULs, control characters and tags, whatever the encoding.
  const text = head.toString('latin1').replace(/^\u00ef\u00bb\u00bf/, '');
  return !BINARY.test(text) && !MARKUP.test(text) && !DANGEROUS_TAGS.test(text);
}

/** The accepted type of a file from its first bytes and (for CSV only) its name; undefined: refused. */
export async function detectType(head: Buffer, fileName: string): Promise<AcceptedType | undefined> {
  const detected = await fileTypeFromBuffer(head);
  if (detected) return acceptedType(detected.mime);
  return looksLikeCsv(head, fileName) ? acceptedType('text/csv') : undefined;
}

/**
 * The name with an extension of its type: 'constat.pdf' stays, 'photo.pdf' holding a JPEG becomes
 * 'photo.jpg', 'scan' becomes 'scan.pdf'. A download then opens with the program its bytes need.
 */
export function nameForType(name: string, type: AcceptedType): string {
  const { base, extension } = splitExtension(name);
  if (type.extensions.includes(extension.slice(1).toLowerCase())) return name;
  const wanted = `.${type.extensions[0]}`;
  return truncateName(extension === '' || extension.length > 6 ? `${name}${wanted}` : `${base}${wanted}`, DOCUMENT_NAME_MAX);
}

/** nameForType for a stored document's media type (a rename keeps the extension its bytes need). */
export function nameForMediaType(name: string, mediaType: string): string {
  const type = acceptedType(mediaType);
  return type ? nameForType(name, type) : name;
}

/**
 * Reads the first `size` bytes of a stream without consuming them: the returned body gives the
 * whole file again, from its first byte (the head pushed back, or a new stream when the file was
 * shorter than the head and has ended).
 */
export async function readHead(stream: Readable, size: number): Promise<{ head: Buffer; body: Readable }> {
  const chunks: Buffer[] = [];
  let length = 0;
  let ended = false;
  while (length < size) {
    const chunk = stream.read() as Buffer | null;
    if (chunk !== null) {
      chunks.push(chunk);
      length += chunk.length;
      continue;
    }
    if (stream.readableEnded) {
      ended = true;
      break;
    }
    ended = await new Promise<boolean>((resolve, reject) => {
      const done = (value: boolean) => () => {
        stream.off('readable', onReadable);
        stream.off('end', onEnd);
        stream.off('error', onError);
        resolve(value);
      };
      const onReadable = done(false);
      const onEnd = done(true);
      const onError = (error: Error) => {
        stream.off('readable', onReadable);
        stream.off('end', onEnd);
        reject(error);
      };
      stream.once('readable', onReadable);
      stream.once('end', onEnd);
      stream.once('error', onError);
    });
    if (ended) break;
  }
  const head = Buffer.concat(chunks);
  if (ended || stream.readableEnded) return { head, body: Readable.from(head.length > 0 ? [head] : []) };
  if (head.length > 0) stream.unshift(head);
  return { head: head.subarray(0, size), body: stream };
}
