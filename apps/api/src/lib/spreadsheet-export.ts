import { PassThrough, Readable, type Writable } from 'node:stream';
import { formatPlate } from '@flotte/contract';
import ExcelJS from 'exceljs';
import type { ExportColumn, ExportColumnType } from '../db/list-kit.js';

/**
 * Spreadsheets the way French users open them (DOMAIN.md, "Spreadsheets French users bring";
 * decision 028): CSV in UTF-8 with a BOM, `;` between fields, CRLF, dates dd/mm/yyyy,
 * amounts 1 234,56, plates AB-123-CD; XLSX with typed cells (dates, amounts in euros), the header
 * row frozen and filters on. Both are written batch after batch as the rows come (db/list-export.ts).
 */

export type ExportFormat = 'csv' | 'xlsx';

export const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

const BOM = '\uFEFF';
const SEPARATOR = ';';
const EOL = '\r\n';

/** dd/mm/yyyy from an ISO day (YYYY-MM-DD); anything else as it is. */
export function frenchDate(iso: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso);
  return match ? `${match[3]}/${match[2]}/${match[1]}` : iso;
}

/**
 * An amount the French way, without the euro sign: `1 234,56`, `-12,50`. Thousands are separated
 * by a plain space (what every tool reads back; the import also takes U+00A0 and U+202F), always
 * two decimals. Written by hand, not with Intl: its separators change with the ICU version.
 */
export function frenchAmount(amount: number): string {
  const cents = Math.round(Math.abs(amount) * 100);
  const units = Math.floor(cents / 100).toString();
  const grouped = units.replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
  const sign = amount < 0 && cents > 0 ? '-' : '';
  return `${sign}${grouped},${String(cents % 100).padStart(2, '0')}`;
}

/** A number the French way (decimal comma), no grouping: `50`, `12,5`. */
export function frenchNumber(value: number): string {
  return String(value).replace('.', ',');
}

/**
 * CSV injection (OWASP): a spreadsheet takes a cell starting with `=`, `+`, `-` or `@` (or a tab or
 * carriage return before them) for a formula. Such a text gets a leading apostrophe, which shows
 * it as text. Only text the users typed is concerned: numbers and dates the server formats itself
 * (a negative amount) are written as they are.
 */
export function neutralise(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

/** One CSV field: quoted when it holds the separator, a quote or a line break; quotes doubled. */
export function csvField(text: string): string {
  return /[;"\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

type Value = string | number | boolean | null | undefined;

/** A value as its CSV field shows it, by its column's type. */
export function csvValue(type: ExportColumnType, value: Value): string {
  if (value === null || value === undefined || value === '') return '';
  switch (type) {
    case 'plate':
      return csvField(neutralise(formatPlate(String(value))));
    case 'date':
      return frenchDate(String(value));
    case 'euros':
      return frenchAmount(Number(value));
    case 'number':
      return frenchNumber(Number(value));
    case 'boolean':
      return value ? 'Oui' : 'Non';
    case 'text':
      return csvField(neutralise(String(value)));
  }
}

/** The CSV line of a row (its CRLF included). */
export function csvLine(cells: readonly string[]): string {
  return cells.join(SEPARATOR) + EOL;
}

/** The CSV file: BOM and header line, then one line per row, batch after batch. */
export function csvStream<Row>(columns: readonly ExportColumn<Row>[], batches: AsyncIterable<Row[]>): Readable {
  async function* lines() {
    yield BOM + csvLine(columns.map((c) => csvField(neutralise(c.header))));
    for await (const rows of batches) {
      let chunk = '';
      for (const row of rows) chunk += csvLine(columns.map((c) => csvValue(c.type, c.value(row))));
      yield chunk;
    }
  }
  return Readable.from(lines(), { objectMode: false });
}

/** Excel's number formats (the file's own notation; Excel shows them in the reader's language). */
const NUMBER_FORMATS: Partial<Record<ExportColumnType, string>> = {
  date: 'dd/mm/yyyy',
  euros: '#,##0.00 "€";-#,##0.00 "€"',
};

/** A value as its XLSX cell holds it: a date, a number, a boolean shown Oui/Non, or a string (never a formula). */
export function xlsxValue(type: ExportColumnType, value: Value): string | number | Date | null {
  if (value === null || value === undefined || value === '') return null;
  switch (type) {
    case 'plate':
      return formatPlate(String(value));
    case 'date': {
      // Midnight UTC: Excel's day serial, whole, whatever the server's time zone.
      const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(String(value));
      return match ? new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))) : String(value);
    }
    case 'euros':
    case 'number':
      return Number(value);
    case 'boolean':
      return value ? 'Oui' : 'Non';
    case 'text':
      // A line break inside a cell is LF in Excel (XML turns a bare CR into LF anyway).
      return String(value).replace(/\r\n?/g, '\n');
  }
}

/** The output holds this much unread before the writer waits for the client. */
const HIGH_WATER = 256 * 1024;

/**
 * The XLSX file, written by exceljs's streaming writer (no shared strings table: it would grow with
 * the rows): one sheet, the header row bold and frozen, filters over every row. Each batch waits
 * for the client to take what was written before, so a slow download does not pile up in memory.
 * A failure in the middle destroys the stream (the download fails; nothing half-written looks whole).
 */
export function xlsxStream<Row>(columns: readonly ExportColumn<Row>[], batches: AsyncIterable<Row[]>, sheetName: string): Readable {
  const output = new PassThrough({ highWaterMark: HIGH_WATER });
  void writeXlsx(columns, batches, sheetName, output).catch((error: unknown) => output.destroy(error instanceof Error ? error : new Error(String(error))));
  return output;
}

async function writeXlsx<Row>(columns: readonly ExportColumn<Row>[], batches: AsyncIterable<Row[]>, sheetName: string, output: PassThrough) {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: output as Writable, useStyles: true, useSharedStrings: false });
  workbook.creator = 'FlotteAssur';
  workbook.created = new Date();
  const sheet = workbook.addWorksheet(sheetName, { views: [{ state: 'frozen', xSplit: 0, ySplit: 1 }] });
  sheet.columns = columns.map((c) => ({ header: c.header, width: c.width ?? Math.max(12, c.header.length + 4) }));
  // One style object per column, shared by its cells: exceljs looks a cell's style up by the
  // object first (a WeakMap), by its JSON otherwise. A column style would give every cell its own
  // copy: three times slower for 100 000 rows (docs/performance.md).
  const plain: Partial<ExcelJS.Style> = {};
  const styles = columns.map((c): Partial<ExcelJS.Style> => {
    const numFmt = NUMBER_FORMATS[c.type];
    return numFmt ? { numFmt } : plain;
  });
  sheet.getRow(1).font = { bold: true };
  sheet.getRow(1).commit();
  let rowCount = 1;
  for await (const rows of batches) {
    if (output.destroyed) return;
    for (const row of rows) {
      const written = sheet.addRow(columns.map((c) => xlsxValue(c.type, c.value(row))));
      styles.forEach((style, i) => (written.getCell(i + 1).style = style));
      written.commit();
      rowCount++;
    }
    if (output.writableLength > HIGH_WATER) await waitForDrain(output);
  }
  sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: rowCount, column: columns.length } };
  sheet.commit();
  await workbook.commit();
}

function waitForDrain(stream: PassThrough): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
  });
}

/** The download's file name: the register's French name and today (`vehicules-2026-11-26.csv`). */
export function exportFileName(file: string, today: string, format: ExportFormat): string {
  return `${file}-${today}.${format}`;
}

/**
 * Content-Disposition for a file name (RFC 6266): an ASCII `filename` (accents dropped, quotes
 * and backslashes out) for old clients, and `filename*` in UTF-8 for the others.
 */
export function contentDisposition(fileName: string): string {
  const ascii = fileName
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]|["\\]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
