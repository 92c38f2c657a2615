import ExcelJS from 'exceljs';
import iconv from 'iconv-lite';
import Papa from 'papaparse';
import yauzl from 'yauzl';
import { BadRequestError, PayloadTooLargeError } from '../../errors.js';
import { type Cell, cellText, isBlank } from './french-values.js';

/**
 * Reads what French users bring (issue 13, DOMAIN.md): CSV in UTF-8 (with or without BOM),
 * UTF-16 (Excel's « texte Unicode ») or Windows-1252, separated by `;`, `,` or tab, and XLSX
 * (first sheet, formulas as their values). Whatever the file's name or type says, its bytes decide.
 */

export const IMPORT_LIMITS = {
  maxBytes: 20 * 1024 * 1024,
  maxRows: 100_000,
  /** An XLSX's parts, decompressed, all together. */
  maxUncompressedBytes: 300 * 1024 * 1024,
  /** One part's expansion: a real sheet compresses ~10×, a bomb 1 000×. */
  maxRatio: 200,
  maxEntries: 10_000,
} as const;

export type SheetRow = { /** As Excel numbers it (the header is row 1 of a CSV). */ line: number; cells: Cell[] };
export type Sheet = {
  format: 'csv' | 'xlsx';
  encoding?: 'utf-8' | 'utf-16le' | 'windows-1252';
  separator?: ';' | ',' | '\t';
  headers: string[];
  rows: SheetRow[];
  /** XLSX only: the workbook's sheets, in order, and the one read. */
  sheets?: string[];
  sheet?: string;
};

export const MESSAGES = {
  tooLarge: 'Le fichier dépasse la taille maximale autorisée (20 Mo).',
  tooManyRows: `Le fichier dépasse ${IMPORT_LIMITS.maxRows.toLocaleString('fr-FR')} lignes : découpez-le en plusieurs fichiers.`,
  empty: 'Le fichier est vide.',
  noData: 'Le fichier ne contient que des en-têtes : aucune ligne à importer.',
  notSpreadsheet: "Ce fichier n'est pas un tableur lisible : enregistrez-le au format CSV ou Excel (.xlsx).",
  xls: "Le format Excel 97-2003 (.xls) n'est pas pris en charge : enregistrez le fichier au format Excel (.xlsx) ou CSV.",
  zipBomb: 'Fichier Excel refusé : son contenu décompressé serait anormalement volumineux.',
  badXlsx: "Ce fichier Excel est endommagé ou n'est pas un classeur .xlsx.",
  noSheet: 'Le classeur ne contient aucune feuille avec des données.',
  unknownSheet: (name: string) => `La feuille « ${name} » n'existe pas dans ce classeur.`,
  emptySheet: (name: string) => `La feuille « ${name} » ne contient aucune donnée.`,
} as const;

const fail = (message: string) => new BadRequestError(message, [{ path: 'file', message }]);

/** `sheet`: the XLSX sheet to read, by name (a CSV has none: ignored); else the first with data. */
export async function readSpreadsheet(buffer: Buffer, sheet?: string | null): Promise<Sheet> {
  if (buffer.length > IMPORT_LIMITS.maxBytes) throw new PayloadTooLargeError(MESSAGES.tooLarge);
  if (buffer.length === 0) throw fail(MESSAGES.empty);
  if (buffer.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))) return readXlsx(buffer, sheet ?? null);
  if (buffer.subarray(0, 4).equals(Buffer.from([0xd0, 0xcf, 0x11, 0xe0]))) throw fail(MESSAGES.xls);
  return readCsv(buffer);
}

// ---------------------------------------------------------------- CSV

function decode(buffer: Buffer): { text: string; encoding: NonNullable<Sheet['encoding']> } {
  if (buffer[0] === 0xef && buffer[1] === 0xbb && buffer[2] === 0xbf) return { text: buffer.subarray(3).toString('utf8'), encoding: 'utf-8' };
  if (buffer[0] === 0xff && buffer[1] === 0xfe) return { text: iconv.decode(buffer.subarray(2), 'utf-16le'), encoding: 'utf-16le' };
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(buffer), encoding: 'utf-8' };
  } catch {
    // Not UTF-8: what Excel in France writes for « CSV (séparateur : point-virgule) ».
    return { text: iconv.decode(buffer, 'windows-1252'), encoding: 'windows-1252' };
  }
}

/** Text, not some binary renamed .csv: no NUL, few control characters. */
function looksLikeText(text: string): boolean {
  const sample = text.slice(0, 8192);
  if (sample.includes('\u0000')) return false;
  // eslint-disable-next-line no-control-regex
  const controls = sample.match(/[\u0001-\u0008\u000e-\u001f\u007f]/g)?.length ?? 0;
  return controls <= sample.length / 100;
}

/** The separator of the header line, outside quotes: the most frequent of `;`, tab and `,` (ties go to `;`). */
function detectSeparator(text: string): NonNullable<Sheet['separator']> {
  const counts = { ';': 0, '\t': 0, ',': 0 };
  let quoted = false;
  for (const char of text.slice(0, 65_536)) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === '\n' || char === '\r')) {
      if (counts[';'] + counts['\t'] + counts[','] > 0) break;
    } else if (!quoted && char in counts) counts[char as keyof typeof counts]++;
  }
  const order = [';', '\t', ','] as const;
  return order.reduce((best, c) => (counts[c] > counts[best] ? c : best), order[0]);
}

/**
 * A CSV cell that a spreadsheet would run as a formula is written by exports (ours, and most
 * tools') with a leading apostrophe: `'=…`, `'+44 …`, `'-…`, `'@…` (decision 028). Read back, the
 * apostrophe goes, so that an exported file imports back unchanged; the value stays text here.
 */
export function unneutralised(cell: string): string {
  return /^'[=+\-@\t\r]/.test(cell) ? cell.slice(1) : cell;
}

function readCsv(buffer: Buffer): Sheet {
  const { text, encoding } = decode(buffer);
  if (!looksLikeText(text)) throw fail(MESSAGES.notSpreadsheet);
  if (text.trim() === '') throw fail(MESSAGES.empty);
  const separator = detectSeparator(text);
  // Record by record (no array of every record beside the rows); one more row than allowed
  // (plus the header) is enough to know the file is too long.
  let headers: string[] | null = null;
  let record = 0;
  const rows: SheetRow[] = [];
  Papa.parse<string[]>(text, {
    delimiter: separator,
    skipEmptyLines: false,
    preview: IMPORT_LIMITS.maxRows + 2,
    step: ({ data: cells }) => {
      record++;
      if (cells.every((c) => c.trim() === '')) return;
      if (!headers) headers = cells.map((h) => h.trim());
      else rows.push({ line: record, cells: cells.map((c) => (c.trim() === '' ? null : unneutralised(c))) });
    },
  });
  if (!headers) throw fail(MESSAGES.empty);
  if (rows.length > IMPORT_LIMITS.maxRows) throw fail(MESSAGES.tooManyRows);
  if (rows.length === 0) throw fail(MESSAGES.noData);
  return { format: 'csv', encoding, separator, headers, rows };
}

// ---------------------------------------------------------------- XLSX

/** Reads the zip's central directory only (nothing decompressed) and refuses abnormal expansions. */
export function checkZipDirectory(buffer: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buffer, { lazyEntries: true, validateEntrySizes: true, autoClose: true }, (error, zip) => {
      if (error || !zip) return reject(fail(MESSAGES.badXlsx));
      if (zip.entryCount > IMPORT_LIMITS.maxEntries) {
        zip.close();
        return reject(fail(MESSAGES.zipBomb));
      }
      let total = 0;
      let hasWorkbook = false;
      zip.on('error', () => reject(fail(MESSAGES.badXlsx)));
      zip.on('entry', (entry: yauzl.Entry) => {
        total += entry.uncompressedSize;
        if (entry.fileName === 'xl/workbook.xml') hasWorkbook = true;
        const ratio = entry.uncompressedSize / Math.max(entry.compressedSize, 1);
        if (total > IMPORT_LIMITS.maxUncompressedBytes || (entry.uncompressedSize > 1024 * 1024 && ratio > IMPORT_LIMITS.maxRatio)) {
          zip.close();
          return reject(fail(MESSAGES.zipBomb));
        }
        zip.readEntry();
      });
      zip.on('end', () => (hasWorkbook ? resolve() : reject(fail(MESSAGES.badXlsx))));
      zip.readEntry();
    });
  });
}

/** A cell as its value: a formula's result, rich text's text, a link's text, a percentage as '50 %'. */
function cellValue(cell: ExcelJS.Cell): Cell {
  const value = cell.value;
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value;
  if (typeof value === 'number') {
    if (cell.numFmt && cell.numFmt.includes('%')) return `${Math.round(value * 10000) / 100} %`;
    return value;
  }
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'object') {
    if ('result' in value || 'formula' in value || 'sharedFormula' in value) {
      const result = (value as { result?: unknown }).result;
      if (result === undefined || result === null || (typeof result === 'object' && !(result instanceof Date))) return null;
      if (typeof result === 'number' && cell.numFmt?.includes('%')) return `${Math.round(result * 10000) / 100} %`;
      return result as Cell;
    }
    if ('richText' in value) return value.richText.map((r) => r.text).join('');
    if ('text' in value) return String((value as { text: unknown }).text);
    if ('error' in value) return null;
  }
  return null;
}

async function readXlsx(buffer: Buffer, chosen: string | null): Promise<Sheet> {
  await checkZipDirectory(buffer);
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(buffer as unknown as ArrayBuffer);
  } catch {
    throw fail(MESSAGES.badXlsx);
  }
  const sheet = chosen === null ? workbook.worksheets.find((w) => w.actualRowCount > 0) : workbook.worksheets.find((w) => w.name === chosen);
  if (!sheet) throw chosen === null ? fail(MESSAGES.noSheet) : new BadRequestError(MESSAGES.unknownSheet(chosen), [{ path: 'sheet', message: MESSAGES.unknownSheet(chosen) }]);
  const empty = () => (chosen === null ? fail(MESSAGES.noSheet) : new BadRequestError(MESSAGES.emptySheet(chosen), [{ path: 'sheet', message: MESSAGES.emptySheet(chosen) }]));
  if (sheet.actualRowCount > IMPORT_LIMITS.maxRows + 1) throw fail(MESSAGES.tooManyRows);
  let headers: string[] | null = null;
  let width = 0;
  const rows: SheetRow[] = [];
  sheet.eachRow({ includeEmpty: false }, (row, line) => {
    const cells: Cell[] = [];
    for (let c = 1; c <= row.cellCount; c++) cells.push(cellValue(row.getCell(c)));
    if (cells.every(isBlank)) return;
    if (!headers) {
      headers = cells.map((cell) => cellText(cell));
      width = headers.length;
      return;
    }
    rows.push({ line, cells: cells.length > width ? cells.slice(0, Math.max(width, cells.length)) : cells });
  });
  if (!headers) throw empty();
  if (rows.length === 0) throw fail(MESSAGES.noData);
  return { format: 'xlsx', headers, rows, sheets: workbook.worksheets.map((w) => w.name), sheet: sheet.name };
}
