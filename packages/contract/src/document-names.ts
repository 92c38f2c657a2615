// Names of the document management's folders and files (issue 14), without zod (decision 015):
// the API cleans an uploaded file's name with them, the schemas refuse a typed name that breaks them.
import { isSafeText, UNSAFE_TEXT_MESSAGE } from './rules.js';

export const DOCUMENT_NAME_MAX = 255;

// eslint-disable-next-line no-control-regex -- control characters are exactly what this finds.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;
/** Direction overrides and isolates: 'facture\u202Efdp.exe' would read 'facture exe.pdf'. */
const BIDI = /[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
/** Half of a character (not Unicode: PostgreSQL would store U+FFFD in its place). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/** Characters no Windows file system takes, and the path separators. */
const FORBIDDEN = /[<>:"/\\|?*]/g;
/** Names Windows keeps for its devices, with or without an extension. */
const RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$/i;

/** Why a typed name cannot be used, or null when it can (the name as it will be stored: trimmed). */
export function documentNameIssue(name: string): string | null {
  const trimmed = name.trim();
  if (trimmed === '') return 'Le nom est obligatoire';
  if (trimmed.length > DOCUMENT_NAME_MAX) return `Le nom : ${DOCUMENT_NAME_MAX} caractères maximum`;
  if (!isSafeText(trimmed)) return `Le nom : ${UNSAFE_TEXT_MESSAGE}`;
  if (new RegExp(CONTROL.source).test(trimmed) || new RegExp(BIDI.source).test(trimmed)) return 'Le nom ne peut pas contenir de caractère de contrôle ni de retour à la ligne';
  if (new RegExp(FORBIDDEN.source).test(trimmed)) return 'Le nom ne peut pas contenir les caractères < > : " / \\ | ? *';
  if (trimmed === '.' || trimmed === '..' || trimmed.startsWith('.')) return 'Le nom ne peut pas commencer par un point';
  if (trimmed.endsWith('.')) return 'Le nom ne peut pas finir par un point';
  if (RESERVED.test(trimmed)) return `« ${trimmed} » est un nom réservé par Windows : choisissez-en un autre`;
  return null;
}

/**
 * An uploaded file's name made safe to keep and to hand back in a download: its last path segment
 * only, no control or direction characters, Windows' forbidden characters as '_', no leading or
 * trailing dots and spaces, reserved device names prefixed, at most 255 characters with its
 * extension kept. Never empty ('fichier').
 */
export function cleanFileName(raw: string): string {
  const lastSegment = raw.replace(LONE_SURROGATE, '').normalize('NFC').split(/[/\\]/).at(-1) ?? '';
  let name = lastSegment.replace(CONTROL, '').replace(BIDI, '').replace(FORBIDDEN, '_').replace(/\s+/g, ' ');
  name = name.replace(/^[\s.]+/, '').replace(/[\s.]+$/, '');
  if (name === '') return 'fichier';
  if (RESERVED.test(name)) name = `_${name}`;
  return truncateName(name, DOCUMENT_NAME_MAX);
}

/** The name cut to max characters, its extension (if short) kept. */
export function truncateName(name: string, max: number): string {
  const chars = Array.from(name);
  if (chars.length <= max) return name;
  const { base, extension } = splitExtension(name);
  const ext = Array.from(extension);
  if (ext.length > 0 && ext.length < 20) return Array.from(base).slice(0, max - ext.length).join('').trimEnd() + extension;
  return chars.slice(0, max).join('').trimEnd();
}

/** 'rapport.final.pdf' → { base: 'rapport.final', extension: '.pdf' }; no extension: ''. */
export function splitExtension(name: string): { base: string; extension: string } {
  const dot = name.lastIndexOf('.');
  if (dot <= 0 || dot === name.length - 1) return { base: name, extension: '' };
  return { base: name.slice(0, dot), extension: name.slice(dot) };
}
