import { Readable } from 'node:stream';
import {
  centsToEuros,
  checkPlate,
  formatPlate,
  type ImportCounts,
  type ImportEntity,
  type ImportMapping,
  type ImportMode,
  type ImportSelection,
  type ImportSummary,
  normalizePlate,
  todayIso,
  vehiculeDateIssues,
} from '@flotte/contract';
import type { Database } from '../../db/client.js';
import type { ExportColumn } from '../../db/list-kit.js';
import { readTenant, type ReadTx, withTenant, type WriteTx } from '../../db/scope.js';
import { AppError, BadRequestError, ConflictError, ForbiddenError, NotFoundError } from '../../errors.js';
import { type AuthContext, isAdmin, requireOrganization } from '../../lib/auth-context.js';
import { CONTENT_TYPES, csvStream } from '../../lib/spreadsheet-export.js';
import { openStoredFile, removeStoredFile, storeFile } from '../../platform/storage/files.js';
import type { ObjectStorage } from '../../platform/storage/storage.js';
import { type FleetMovement, type FleetNotifier, notifyFleetMovements } from '../insurance-intermediary/insurance-intermediary.service.js';
import { claimValues } from '../sinisters/sinisters.service.js';
import { fleetMovements } from '../vehicules/vehicules.service.js';
import { foldHeader } from './french-values.js';
import { fieldsOf, labelOf, mappingIssues, parseRows, type RowError, suggestMapping } from './import.fields.js';
import * as repo from './import.repository.js';
import { observationsOf } from '../../platform/metrics/observations.js';
import { IMPORT_LIMITS, readSpreadsheet, type Sheet } from './spreadsheet.js';

const NOT_FOUND = 'Import introuvable';
/** Above this many rows a commit runs as a background job (issue 13). */
export const BACKGROUND_THRESHOLD = 5_000;
export const REVERT_WINDOW_MS = 24 * 60 * 60 * 1000;
const MAX_ERRORS_SHOWN = 1_000;
const SAMPLE_ROWS = 10;

export type ImportDeps = { db: Database; storage: ObjectStorage };

// ---------------------------------------------------------------- preview

/** `sheetName`: the XLSX sheet to read (else the first with data); kept for the validation and the commit. */
export async function preview(deps: ImportDeps, ctx: AuthContext, entity: ImportEntity, file: { fileName: string; buffer: Buffer }, sheetName?: string) {
  const organizationUuid = requireOrganization(ctx);
  // Everything is read before anything is kept: a refused file leaves nothing.
  const sheet = await readSpreadsheet(file.buffer, sheetName);
  // eslint-disable-next-line no-control-regex -- a file name is shown back: no control characters
  const fileName = file.fileName.replace(/[\u0000-\u001f\u007f]/g, '').slice(0, 255) || 'fichier';
  const row = await storeFile(deps.db, deps.storage, organizationUuid, Readable.from([file.buffer]), { maxBytes: IMPORT_LIMITS.maxBytes }, async (tx, stored) => {
    const last = await repo.lastMapping(tx, entity);
    const inserted = await repo.insertImport(tx, {
      organizationUuid,
      authorUuid: ctx.userUuid,
      entity,
      fileName,
      fileKey: stored.key,
      sheet: sheet.sheet ?? null,
      rowCount: sheet.rows.length,
      headers: sheet.headers,
    });
    return { inserted, last };
  });
  return {
    importId: row.inserted.uuid,
    entity,
    fileName,
    format: sheet.format,
    encoding: sheet.encoding ?? null,
    separator: sheet.separator ?? null,
    sheets: sheet.sheets ?? [],
    sheet: sheet.sheet ?? null,
    headers: sheet.headers,
    fields: [...fieldsOf(entity)],
    suggestedMapping: suggestMapping(entity, sheet.headers, row.last),
    rowCount: sheet.rows.length,
    sample: sheet.rows.slice(0, SAMPLE_ROWS).map((r) => ({ line: r.line, cells: sheet.headers.map((_, i) => cellAsText(r.cells[i] ?? null)) })),
  };
}

function cellAsText(cell: unknown): string {
  if (cell === null || cell === undefined) return '';
  if (cell instanceof Date) return cell.toISOString().slice(0, 10).split('-').reverse().join('/');
  if (typeof cell === 'number') return String(cell).replace('.', ',');
  if (typeof cell === 'boolean') return cell ? 'Oui' : 'Non';
  return String(cell);
}

async function loadImport(db: Database, organizationUuid: string, importId: string) {
  const row = await readTenant(db, organizationUuid, (tx) => repo.findImport(tx, importId));
  if (!row) throw new NotFoundError(NOT_FOUND);
  return row;
}

/** The import's file read again: its sheet, as the preview read it. */
async function loadSheet(storage: ObjectStorage, row: Pick<repo.ImportRow, 'fileKey' | 'sheet'>): Promise<Sheet> {
  const object = await openStoredFile(storage, row.fileKey);
  const chunks: Buffer[] = [];
  for await (const chunk of object.body as AsyncIterable<Buffer>) chunks.push(chunk);
  return readSpreadsheet(Buffer.concat(chunks), row.sheet);
}

// ---------------------------------------------------------------- the plan: what a commit would do

type Values = Record<string, unknown>;
type Create = { line: number; key: string; values: Values; movements: FleetMovement[] };
type Update = {
  line: number;
  key: string;
  uuid: string;
  set: Values;
  before: Values;
  movements: FleetMovement[];
  changes: { field: string; old: unknown; new: unknown }[];
  /** A vehicle once updated (brand and model, for compare mode's list). */
  after?: Values;
};
type Plan = {
  creates: Create[];
  updates: Update[];
  unchanged: { line: number; key: string; uuid: string }[];
  errors: RowError[];
  warnings: RowError[];
  invalidLines: Set<number>;
  /** Compare mode: active vehicles absent from the file. */
  missing: { uuid: string; immatriculation: string; brand: string | null; model: string | null; entryDate: string | null }[];
  rowCount: number;
};

const same = (a: unknown, b: unknown) => (a ?? null) === (b ?? null);

/** The fields of `values` that differ from `current`; undefined in values leaves a field as it is. */
function diff(values: Values, current: Values, fields: string[]) {
  const set: Values = {};
  const before: Values = {};
  for (const field of fields) {
    if (values[field] === undefined) continue;
    if (!same(values[field], current[field])) {
      set[field] = values[field];
      before[field] = current[field] ?? null;
    }
  }
  return { set, before };
}

function rowError(line: number, field: string | null, message: string, mapping: ImportMapping, headers: string[]): RowError {
  const index = field ? mapping[field] : undefined;
  return { line, field, column: index === undefined || index === null ? null : (headers[index] ?? null), message };
}

const nameKey = (first: string, last: string) => `${foldHeader(first)}|${foldHeader(last)}`;

async function plan(tx: ReadTx, entity: ImportEntity, mode: ImportMode, mapping: ImportMapping, sheet: Sheet): Promise<Plan> {
  const issues = mappingIssues(entity, mode, mapping, sheet.headers);
  if (issues.length > 0) throw new BadRequestError(issues[0]!.message, issues);
  if (mode === 'compare' && entity !== 'vehicule') throw new BadRequestError('Le mode comparaison ne vaut que pour les véhicules', [{ path: 'mode', message: 'Le mode comparaison ne vaut que pour les véhicules' }]);
  const { valid, errors } = parseRows<Values>(entity, mode, mapping, sheet.headers, sheet.rows);
  const result: Plan = { creates: [], updates: [], unchanged: [], errors, warnings: [], invalidLines: new Set(errors.map((e) => e.line)), missing: [], rowCount: sheet.rows.length };
  const seen = new Map<string, number>();
  const fail = (line: number, field: string | null, message: string) => {
    result.errors.push(rowError(line, field, message, mapping, sheet.headers));
    result.invalidLines.add(line);
  };
  /** A second row for the same record: refused, so the result does not hang on the rows' order. */
  const once = (key: string, line: number, what: string) => {
    const first = seen.get(key);
    if (first !== undefined) {
      fail(line, null, `${what} que la ligne ${first} : ligne ignorée`);
      return false;
    }
    seen.set(key, line);
    return true;
  };

  if (entity === 'driver') {
    const existing = await repo.activeDrivers(tx);
    const byEmail = new Map(existing.filter((d) => d.email).map((d) => [d.email!.toLowerCase(), d]));
    const byNamePhone = new Map(existing.filter((d) => d.phone).map((d) => [`${nameKey(d.firstName, d.lastName)}|${d.phone}`, d]));
    for (const { line, values } of valid) {
      const email = (values.email as string | null | undefined) ?? null;
      const namePhone = values.phone ? `${nameKey(values.firstName as string, values.lastName as string)}|${values.phone}` : null;
      const target = (email ? byEmail.get(email) : undefined) ?? (namePhone ? byNamePhone.get(namePhone) : undefined);
      const key = target ? target.uuid : (email ?? namePhone ?? `line:${line}`);
      if (!once(key, line, 'Même conducteur')) continue;
      if (!target) {
        result.creates.push({ line, key, values: { firstName: values.firstName, lastName: values.lastName, email, phone: values.phone ?? null }, movements: [] });
        continue;
      }
      const { set, before } = diff(values, target, ['firstName', 'lastName', 'email', 'phone']);
      if (Object.keys(set).length === 0) result.unchanged.push({ line, key, uuid: target.uuid });
      else result.updates.push({ line, key, uuid: target.uuid, set, before, movements: [], changes: Object.keys(set).map((f) => ({ field: f, old: before[f], new: set[f] })) });
    }
    return result;
  }

  if (entity === 'vehicule') {
    const existing = await repo.activeVehicules(tx);
    const byPlate = new Map(existing.map((v) => [v.immatriculation!, v]));
    const inFile = new Set<string>();
    const fields = ['brand', 'model', 'type', 'circulationDate', 'entryDate', 'exitDate'];
    for (const { line, values } of valid) {
      const plate = values.immatriculation as string;
      if (!once(plate, line, `Même immatriculation (${formatPlate(plate)})`)) continue;
      inFile.add(plate);
      const warning = checkPlate(plate).warning;
      if (warning) result.warnings.push(rowError(line, 'immatriculation', warning, mapping, sheet.headers));
      const target = byPlate.get(plate);
      if (!target) {
        const created = { brand: null, model: null, type: null, circulationDate: null, entryDate: null, exitDate: null, ...values, immatriculation: plate } as Values;
        result.creates.push({ line, key: plate, values: created, movements: fleetMovements(null, created as never) });
        continue;
      }
      const { set, before } = diff(values, target, fields);
      const merged = { ...target, ...set };
      const dateIssues = vehiculeDateIssues(merged as never);
      if (dateIssues.length > 0) {
        fail(line, dateIssues[0]!.path, dateIssues[0]!.message);
        continue;
      }
      if (Object.keys(set).length === 0) result.unchanged.push({ line, key: plate, uuid: target.uuid });
      else
        result.updates.push({
          line,
          key: plate,
          uuid: target.uuid,
          set,
          before,
          movements: fleetMovements(target as never, merged as never),
          changes: Object.keys(set).map((f) => ({ field: f, old: before[f], new: set[f] })),
          after: merged,
        });
    }
    if (mode === 'compare') {
      result.missing = existing
        .filter((v) => !inFile.has(v.immatriculation!) && v.exitDate === null)
        .map((v) => ({ uuid: v.uuid, immatriculation: v.immatriculation!, brand: v.brand, model: v.model, entryDate: v.entryDate }));
    }
    return result;
  }

  // Claims: by their reference; the vehicle by its plate, the driver by name, when they exist.
  const [existing, vehicles, people] = [await repo.activeSinisters(tx), await repo.activeVehicules(tx), await repo.activeDrivers(tx)];
  const byRef = new Map(existing.map((s) => [s.sinisterIntermediateRef!.trim().toLowerCase(), s]));
  const vehicleByPlate = new Map(vehicles.map((v) => [v.immatriculation!, v.uuid]));
  const driverByName = new Map<string, string | null>();
  for (const d of people) {
    for (const key of [`${foldHeader(d.firstName)} ${foldHeader(d.lastName)}`, `${foldHeader(d.lastName)} ${foldHeader(d.firstName)}`]) {
      // Two namesakes: nobody is linked rather than the wrong one.
      driverByName.set(key, driverByName.has(key) && driverByName.get(key) !== d.uuid ? null : d.uuid);
    }
  }
  const fields = ['sinisterDate', 'city', 'ida', 'hasHumanInjury', 'damagedVehicule', 'isThirdImplicated', 'isDeclared', 'responsibilityRate', 'status', 'openedAt', 'closedAt', 'paidCents', 'reserveCents', 'description', 'vehiculeUuid', 'driverUuid', 'immatriculation'];
  for (const { line, values } of valid) {
    const { immatriculation, driver, ...body } = values as Values & { immatriculation?: string; driver?: string };
    const ref = (body.sinisterIntermediateRef as string).trim();
    if (!once(ref.toLowerCase(), line, `Même numéro de sinistre (${ref})`)) continue;
    const links: Values = {};
    if (immatriculation) {
      const plate = normalizePlate(immatriculation);
      links.immatriculation = plate;
      const vehicle = vehicleByPlate.get(plate);
      if (vehicle) links.vehiculeUuid = vehicle;
      else result.warnings.push(rowError(line, 'immatriculation', `Véhicule ${formatPlate(plate)} absent de la flotte : sinistre importé sans lien vers un véhicule`, mapping, sheet.headers));
    }
    if (driver) {
      const found = driverByName.get(foldHeader(driver));
      if (found) links.driverUuid = found;
      else result.warnings.push(rowError(line, 'driver', `Conducteur « ${driver} » introuvable ou homonyme : sinistre importé sans conducteur`, mapping, sheet.headers));
    }
    const target = byRef.get(ref.toLowerCase());
    let own: Values;
    try {
      own = claimValues(body as never, target ?? null) as Values;
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      const detail = error.details?.[0];
      fail(line, detail?.path ?? null, error.message);
      continue;
    }
    const values2 = { ...own, ...links, sinisterIntermediateRef: ref };
    if (!target) {
      result.creates.push({ line, key: ref, values: values2, movements: [] });
      continue;
    }
    const { set, before } = diff(values2, target, fields);
    if (Object.keys(set).length === 0) result.unchanged.push({ line, key: ref, uuid: target.uuid });
    else result.updates.push({ line, key: ref, uuid: target.uuid, set, before, movements: [], changes: Object.keys(set).map((f) => ({ field: f, old: before[f], new: set[f] })) });
  }
  return result;
}

// ---------------------------------------------------------------- validate

const FIELD_LABELS: Record<string, string> = { paidCents: 'Réglé', reserveCents: 'Provision', vehiculeUuid: 'Véhicule', driverUuid: 'Conducteur' };

function shown(field: string, value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (field === 'paidCents' || field === 'reserveCents') return `${centsToEuros(Number(value)).toLocaleString('fr-FR', { minimumFractionDigits: 2 })} €`;
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) return value.split('-').reverse().join('/');
  if (typeof value === 'boolean') return value ? 'Oui' : 'Non';
  return String(value);
}

function countsOf(p: Plan, exited = 0): ImportCounts {
  return { created: p.creates.length, updated: p.updates.length, unchanged: p.unchanged.length, skipped: p.invalidLines.size, exited };
}

export async function validate(deps: ImportDeps, ctx: AuthContext, importId: string, body: { mapping: ImportMapping; mode?: ImportMode | undefined }) {
  const organizationUuid = requireOrganization(ctx);
  const row = await loadImport(deps.db, organizationUuid, importId);
  const mode = body.mode ?? 'upsert';
  const sheet = await loadSheet(deps.storage, row);
  const p = await readTenant(deps.db, organizationUuid, (tx) => plan(tx, row.entity, mode, body.mapping, sheet));
  // The errors' download (GET /import/{id}/errors) reads the file with this validation's mapping.
  if (row.status === 'previewed' || row.status === 'failed') {
    await withTenant(deps.db, organizationUuid, (tx) => repo.transition(tx, importId, ['previewed', 'failed'], { mapping: body.mapping, mode }));
  }
  const sortedErrors = p.errors.sort((a, b) => a.line - b.line);
  const vehicleOf = (c: Create | Update) => ({
    key: c.key,
    immatriculation: formatPlate(c.key),
    uuid: 'uuid' in c ? c.uuid : null,
    line: c.line,
    brand: ((('set' in c ? (c.after ?? { ...c.before, ...c.set }) : c.values).brand as string | undefined) ?? null) as string | null,
    model: ((('set' in c ? (c.after ?? { ...c.before, ...c.set }) : c.values).model as string | undefined) ?? null) as string | null,
    changes: 'changes' in c ? c.changes.map((ch) => ({ field: ch.field, label: FIELD_LABELS[ch.field] ?? labelOf(row.entity, ch.field), old: shown(ch.field, ch.old), new: shown(ch.field, ch.new) })) : [],
  });
  return {
    mode,
    rowCount: p.rowCount,
    valid: p.rowCount - p.invalidLines.size,
    invalid: p.invalidLines.size,
    counts: countsOf(p, p.missing.length),
    errors: sortedErrors.slice(0, MAX_ERRORS_SHOWN),
    errorCount: sortedErrors.length,
    warnings: p.warnings.slice(0, MAX_ERRORS_SHOWN),
    compare:
      mode === 'compare'
        ? {
            new: p.creates.map(vehicleOf),
            changed: p.updates.map(vehicleOf),
            missing: p.missing.map((m) => ({ key: m.immatriculation, immatriculation: formatPlate(m.immatriculation), uuid: m.uuid, line: null, brand: m.brand, model: m.model, changes: [] })),
          }
        : null,
  };
}

// ---------------------------------------------------------------- the errors, as a file

const ERROR_COLUMNS: readonly ExportColumn<RowError>[] = [
  { header: 'Ligne', type: 'number', value: (e) => e.line },
  { header: 'Colonne', type: 'text', value: (e) => e.column ?? '' },
  { header: 'Erreur', type: 'text', value: (e) => e.message },
];

/**
 * Every error of the last validation (the screen shows the first ones), as a CSV in the exports'
 * style (UTF-8 with BOM, `;`, CRLF): the row as Excel numbers it, the file's column, the message.
 */
export async function errorsFile(deps: ImportDeps, ctx: AuthContext, importId: string, today: string = todayIso()) {
  const organizationUuid = requireOrganization(ctx);
  const row = await loadImport(deps.db, organizationUuid, importId);
  if (!row.mapping) throw new ConflictError("Vérifiez d'abord le fichier : ses erreurs dépendent des colonnes choisies");
  const sheet = await loadSheet(deps.storage, row);
  const p = await readTenant(deps.db, organizationUuid, (tx) => plan(tx, row.entity, row.mode ?? 'upsert', row.mapping!, sheet));
  const errors = p.errors.sort((a, b) => a.line - b.line);
  const base = row.fileName.replace(/\.[^.]*$/, '') || 'fichier';
  return { fileName: `erreurs-${base}-${today}.csv`, contentType: CONTENT_TYPES.csv, stream: csvStream(ERROR_COLUMNS, (async function* () { yield errors; })()) };
}

// ---------------------------------------------------------------- commit

export type CommitInput = { mapping: ImportMapping; mode?: ImportMode | undefined; selection?: ImportSelection | undefined };
type Progress = (percent: number) => void;

/** Percent of background commits running in this process (GET shows it; the database has the status). */
const progressOf = new Map<string, number>();

/**
 * Applies the plan in one transaction: every valid row or nothing. The import row is moved to
 * 'running' by the transaction's first statement, so a second commit waits for the first and then
 * finds it done: the same commit twice writes nothing the second time.
 */
async function apply(tx: WriteTx, ctx: AuthContext, notifier: FleetNotifier | undefined, row: repo.ImportRow, input: CommitInput, sheet: Sheet, progress?: Progress) {
  const mode = input.mode ?? 'upsert';
  const p = await plan(tx, row.entity, mode, input.mapping, sheet);
  const now = new Date();
  const table = repo.TABLES[row.entity] as never;
  let creates = p.creates;
  let updates = p.updates;
  let exits: { uuid: string; exitDate: string; vehicle: Plan['missing'][number] }[] = [];
  let skipped = p.invalidLines.size;
  if (mode === 'compare') {
    const selection = input.selection ?? {};
    const chosenNew = new Set(selection.new ?? []);
    const chosenChanged = new Set(selection.changed ?? []);
    const missing = new Map(p.missing.map((m) => [m.uuid, m]));
    const unknown = [...chosenNew].filter((k) => !creates.some((c) => c.key === k)).concat([...chosenChanged].filter((k) => !updates.some((u) => u.key === k)));
    const notMissing = (selection.exits ?? []).filter((e) => !missing.has(e.uuid));
    if (unknown.length > 0 || notMissing.length > 0) {
      const message = 'La sélection ne correspond plus au fichier ou à la flotte : validez à nouveau';
      throw new ConflictError(message, [{ path: 'selection', message }]);
    }
    for (const e of selection.exits ?? []) {
      const v = missing.get(e.uuid)!;
      if (v.entryDate && e.exitDate < v.entryDate) {
        const message = `${formatPlate(v.immatriculation)} : la date de sortie précède la date d'entrée`;
        throw new BadRequestError(message, [{ path: 'selection.exits', message }]);
      }
    }
    skipped += creates.filter((c) => !chosenNew.has(c.key)).length + updates.filter((u) => !chosenChanged.has(u.key)).length;
    creates = creates.filter((c) => chosenNew.has(c.key));
    updates = updates.filter((u) => chosenChanged.has(u.key));
    exits = (selection.exits ?? []).map((e) => ({ uuid: e.uuid, exitDate: e.exitDate, vehicle: missing.get(e.uuid)! }));
  }
  const total = Math.max(creates.length + updates.length + exits.length, 1);
  let done = 0;
  const step = (n: number) => {
    done += n;
    progress?.(Math.min(99, Math.floor((done / total) * 100)));
  };
  const stamp = { importUuid: row.uuid, organizationUuid: row.organizationUuid, writtenAt: now };
  // Set-based (decision 027): a statement per chunk of rows, never one per row.
  await repo.insertCreated(tx, table, creates.map((c) => c.values), stamp, (n) => progress?.(Math.min(99, Math.floor((n / total) * 100))));
  step(creates.length);
  await repo.updateMany(tx, table, updates, now, (n) => progress?.(Math.min(99, Math.floor(((done + n) / total) * 100))));
  step(updates.length);
  await repo.updateMany(tx, table, exits.map((e) => ({ uuid: e.uuid, set: { exitDate: e.exitDate } })), now);
  step(exits.length);
  await repo.recordChanges(tx, stamp, [
    ...updates.map((u) => ({ recordUuid: u.uuid, action: 'updated' as const, before: u.before })),
    ...exits.map((e) => ({ recordUuid: e.uuid, action: 'exited' as const, before: { exitDate: null } })),
  ]);
  // Entries and exits reach the intermediary as one e-mail, sent only if this commits.
  const movements: FleetMovement[] = [
    ...creates.flatMap((c) => c.movements),
    ...updates.flatMap((u) => u.movements),
    ...exits.map((e) => ({ movement: 'exit' as const, immatriculation: e.vehicle.immatriculation, brand: e.vehicle.brand, model: e.vehicle.model, type: null, date: e.exitDate })),
  ];
  if (notifier && movements.length > 0) await notifyFleetMovements(tx, ctx, notifier, movements);
  const counts: ImportCounts = { created: creates.length, updated: updates.length, unchanged: p.unchanged.length, skipped, exited: exits.length };
  await repo.updateImport(tx, row.uuid, { status: 'committed', percent: 100, counts, mapping: input.mapping, mode, committedAt: now, error: null });
  return counts;
}

const ZERO: ImportCounts = { created: 0, updated: 0, unchanged: 0, skipped: 0, exited: 0 };

export async function commit(deps: ImportDeps & { queue?: (tx: WriteTx, payload: { organizationUuid: string; importId: string; userUuid: string; input: CommitInput }) => Promise<unknown> }, ctx: AuthContext, importId: string, input: CommitInput, notifier?: FleetNotifier) {
  const organizationUuid = requireOrganization(ctx);
  const row = await loadImport(deps.db, organizationUuid, importId);
  if (row.status === 'committed') return { importId, status: row.status, ...(row.counts ?? ZERO) };
  if (row.status !== 'previewed' && row.status !== 'failed') throw new ConflictError(row.status === 'reverted' ? 'Cet import a été annulé' : 'Cet import est déjà en cours');
  const sheet = await loadSheet(deps.storage, row);
  if (deps.queue && sheet.rows.length > BACKGROUND_THRESHOLD) {
    // Checked now (the mapping, the selection's shape), applied by the job.
    const issues = mappingIssues(row.entity, input.mode ?? 'upsert', input.mapping, sheet.headers);
    if (issues.length > 0) throw new BadRequestError(issues[0]!.message, issues);
    const queued = await withTenant(deps.db, organizationUuid, async (tx) => {
      const moved = await repo.transition(tx, importId, ['previewed', 'failed'], { status: 'queued', percent: 0, error: null });
      if (moved) await deps.queue!(tx, { organizationUuid, importId, userUuid: ctx.userUuid, input });
      return moved;
    });
    if (!queued) return commitAgain(deps.db, organizationUuid, importId);
    return { importId, status: 'queued' as const, ...ZERO };
  }
  const counts = await withTenant(deps.db, organizationUuid, async (tx) => {
    const moved = await repo.transition(tx, importId, ['previewed', 'failed'], { status: 'running' });
    if (!moved) return null;
    return apply(tx, ctx, notifier, moved, input, sheet);
  });
  if (!counts) return commitAgain(deps.db, organizationUuid, importId);
  observationsOf(deps.db).importRows(row.entity, counts);
  return { importId, status: 'committed' as const, ...counts };
}

/** Another request committed it meanwhile: its result, nothing written twice. */
async function commitAgain(db: Database, organizationUuid: string, importId: string) {
  const row = await loadImport(db, organizationUuid, importId);
  if (row.status === 'committed') return { importId, status: row.status, ...(row.counts ?? ZERO) };
  throw new ConflictError('Cet import est déjà en cours');
}

/** The background commit (import.commit job): the same transaction, with its progress kept in this process. */
export async function runQueuedCommit(
  deps: ImportDeps,
  write: <T>(fn: (tx: WriteTx) => Promise<T>) => Promise<T>,
  payload: { organizationUuid: string; importId: string; userUuid: string; input: CommitInput },
  notifier: FleetNotifier | undefined,
) {
  const { organizationUuid, importId, userUuid, input } = payload;
  const ctx: AuthContext = { userUuid, sessionUuid: '', roles: [], organizationUuid, organizationUserUuid: null, environmentUuids: [] };
  const row = await readTenant(deps.db, organizationUuid, (tx) => repo.findImport(tx, importId));
  if (!row || row.status !== 'queued') return; // done already (a retried job), reverted, or gone
  progressOf.set(importId, 0);
  try {
    const sheet = await loadSheet(deps.storage, row);
    const counts = await write(async (tx) => {
      const moved = await repo.transition(tx, importId, ['queued'], { status: 'running' });
      if (!moved) return null;
      return apply(tx, ctx, notifier, moved, input, sheet, (percent) => progressOf.set(importId, percent));
    });
    if (counts) observationsOf(deps.db).importRows(row.entity, counts);
  } catch (error) {
    // Nothing was written (one transaction): the import says why and may be committed again.
    const message = error instanceof AppError ? error.message : "L'import a échoué : rien n'a été modifié. Réessayez.";
    await write((tx) => repo.transition(tx, importId, ['queued', 'running'], { status: 'failed', error: message, percent: 0 }));
    if (!(error instanceof AppError)) throw error;
  } finally {
    progressOf.delete(importId);
  }
}

// ---------------------------------------------------------------- status, history

function summary(row: repo.ImportRow, author: { firstName: string | null; lastName: string | null } | null): ImportSummary {
  const revertible = row.status === 'committed' && row.committedAt && Date.now() - row.committedAt.getTime() < REVERT_WINDOW_MS;
  return {
    importId: row.uuid,
    entity: row.entity,
    mode: row.mode,
    fileName: row.fileName,
    rowCount: row.rowCount,
    status: row.status,
    percent: row.status === 'committed' ? 100 : (progressOf.get(row.uuid) ?? row.percent),
    counts: row.counts,
    error: row.error,
    author: { uuid: row.authorUuid, name: author ? [author.firstName, author.lastName].filter(Boolean).join(' ') || 'Utilisateur' : 'Utilisateur supprimé' },
    createdAt: row.createdAt.toISOString(),
    committedAt: row.committedAt?.toISOString() ?? null,
    revertedAt: row.revertedAt?.toISOString() ?? null,
    revertibleUntil: revertible ? new Date(row.committedAt!.getTime() + REVERT_WINDOW_MS).toISOString() : null,
  };
}

export async function getOne(db: Database, ctx: AuthContext, importId: string) {
  const organizationUuid = requireOrganization(ctx);
  return readTenant(db, organizationUuid, async (tx) => {
    const row = await repo.findImport(tx, importId);
    if (!row) throw new NotFoundError(NOT_FOUND);
    return summary(row, await repo.authorName(tx, row.authorUuid));
  });
}

export async function list(db: Database, ctx: AuthContext) {
  const rows = await readTenant(db, requireOrganization(ctx), (tx) => repo.listImports(tx));
  return { data: rows.map((r) => summary(r.row, r.firstName === null && r.lastName === null ? null : r)) };
}

// ---------------------------------------------------------------- revert

const EDITED = "modifié depuis l'import : laissé tel quel";
const NOT_YOURS = "Seuls l'auteur de l'import et les administrateurs peuvent l'annuler";

/**
 * Within 24 h of its commit, puts back every row the import created (removed), changed or exited
 * (previous values), unless the row was edited since: then it is left, and named. Its author or an
 * administrator only (403 for another member).
 */
export async function revert(db: Database, ctx: AuthContext, importId: string, notifier?: FleetNotifier) {
  const organizationUuid = requireOrganization(ctx);
  return withTenant(db, organizationUuid, async (tx) => {
    const row = await repo.findImport(tx, importId);
    if (!row) throw new NotFoundError(NOT_FOUND);
    // It deletes what the import created, for good: its author or an administrator, as a permanent deletion.
    if (row.authorUuid !== ctx.userUuid && !isAdmin(ctx)) throw new ForbiddenError(NOT_YOURS);
    if (row.status === 'reverted') throw new ConflictError('Cet import a déjà été annulé');
    if (row.status !== 'committed' || !row.committedAt) throw new ConflictError("Cet import n'a pas été appliqué : rien à annuler");
    if (Date.now() - row.committedAt.getTime() >= REVERT_WINDOW_MS) throw new ConflictError("L'annulation n'est possible que dans les 24 heures qui suivent l'import");
    const moved = await repo.transition(tx, importId, ['committed'], { status: 'reverted', revertedAt: new Date() });
    if (!moved) throw new ConflictError('Cet import a déjà été annulé');
    const changes = await repo.changesOf(tx, importId);
    const stamps = await repo.currentStamps(tx, row.entity, changes.map((c) => c.recordUuid));
    const left: { entity: ImportEntity; uuid: string; label: string; reason: string }[] = [];
    const label = (uuid: string) => {
      const l = stamps.get(uuid)?.label ?? uuid;
      return row.entity === 'vehicule' ? formatPlate(l) : l;
    };
    const untouched = changes.filter((c) => {
      const stamp = stamps.get(c.recordUuid);
      if (!stamp) return false; // deleted since: nothing to put back
      if (stamp.updatedAt.getTime() !== c.writtenAt.getTime()) {
        left.push({ entity: row.entity, uuid: c.recordUuid, label: label(c.recordUuid), reason: EDITED });
        return false;
      }
      return true;
    });
    let toDelete = untouched.filter((c) => c.action === 'created').map((c) => c.recordUuid);
    if (row.entity !== 'sinister') {
      const used = await repo.referencedByClaims(tx, row.entity, toDelete);
      for (const uuid of used) left.push({ entity: row.entity, uuid, label: label(uuid), reason: "lié à un sinistre saisi depuis l'import : laissé tel quel" });
      toDelete = toDelete.filter((u) => !used.has(u));
    }
    const putBack = untouched.filter((c) => c.action !== 'created').map((c) => ({ uuid: c.recordUuid, set: c.before ?? {} }));
    // The entries and exits the import told the intermediary are undone: it hears so, in this transaction.
    if (row.entity === 'vehicule' && notifier) {
      const vehicles = await repo.vehiculesByUuid(tx, [...toDelete, ...putBack.map((p) => p.uuid)]);
      const undone = [
        ...toDelete.flatMap((uuid) => {
          const created = vehicles.get(uuid);
          return created ? fleetMovements(null, created) : [];
        }),
        ...putBack.flatMap(({ uuid, set }) => {
          const now = vehicles.get(uuid);
          return now ? fleetMovements({ ...now, ...(set as Partial<typeof now>) }, now) : [];
        }),
      ];
      await notifyFleetMovements(tx, ctx, notifier, undone, { cancelled: true });
    }
    await repo.deleteMany(tx, row.entity, toDelete);
    const table = repo.TABLES[row.entity] as never;
    await repo.updateMany(tx, table, putBack, new Date());
    return { restored: toDelete.length + putBack.length, left };
  });
}

// ---------------------------------------------------------------- cleanup

/** Imports previewed but never committed (or failed) for more than a day: their row and their file go. */
export async function cleanupStaleImports(deps: ImportDeps, readAll: <T>(fn: (tx: ReadTx) => Promise<T>) => Promise<T>, olderThanMs = REVERT_WINDOW_MS) {
  const stale = await readAll((tx) => repo.staleImports(tx, new Date(Date.now() - olderThanMs)));
  let removed = 0;
  for (const s of stale) {
    await removeStoredFile(deps.db, deps.storage, s.organizationUuid, s.fileKey, (tx) => repo.deleteImport(tx, s.uuid)).catch((error: unknown) => {
      if (!(error instanceof NotFoundError)) throw error;
    });
    removed++;
  }
  return removed;
}
