import {
  CompareVehiculeRowSchema,
  CreateDriverBodySchema,
  DRIVER_HEADERS,
  IMPORT_FIELDS,
  type ImportEntity,
  type ImportMapping,
  type ImportMode,
  ImportSinisterRowSchema,
  ImportVehiculeRowSchema,
  SINISTER_HEADERS,
  VEHICULE_HEADERS,
} from '@flotte/contract';
import type { z } from 'zod';
import {
  type Cell,
  cellText,
  foldHeader,
  isBlank,
  type Parsed,
  parseFrenchAmount,
  parseFrenchBoolean,
  parseFrenchDate,
  parsePercentage,
  parsePhone,
  parseSinisterStatus,
  parseText,
  parseVehiculeType,
} from './french-values.js';
import type { SheetRow } from './spreadsheet.js';

type Parser = (cell: Cell) => Parsed<unknown>;

/** How each target field reads a cell, and the headers French (and English) files give it. */
type FieldSpec = { parse: Parser; synonyms: string[] };

/**
 * A field's synonyms, the header our own export writes for it first (contract's
 * spreadsheet-headers.ts), folded like a file's header: an exported file maps back by itself.
 */
function withExportHeader<T extends Record<string, string>>(headers: T, specs: Record<string, FieldSpec>): Record<string, FieldSpec> {
  return Object.fromEntries(
    Object.entries(specs).map(([field, spec]) => {
      const header = headers[field];
      return [field, header === undefined ? spec : { ...spec, synonyms: [...new Set([foldHeader(header), ...spec.synonyms])] }];
    }),
  );
}

const PLATE_SYNONYMS = ['immatriculation', 'immat', 'immatriculation vehicule', 'n immatriculation', 'no immatriculation', 'numero immatriculation', 'plaque', 'registration', 'plate', 'license plate', 'licence plate'];

const SPECS: Record<ImportEntity, Record<string, FieldSpec>> = {
  driver: withExportHeader(DRIVER_HEADERS, {
    lastName: { parse: parseText, synonyms: ['nom de famille', 'nom du conducteur', 'nom conducteur', 'last name', 'lastname', 'surname', 'family name'] },
    firstName: { parse: parseText, synonyms: ['prenom du conducteur', 'prenom conducteur', 'first name', 'firstname', 'given name'] },
    phone: { parse: parsePhone, synonyms: ['tel', 'tel portable', 'portable', 'mobile', 'tel mobile', 'gsm', 'numero de telephone', 'n telephone', 'phone', 'phone number'] },
    email: { parse: parseText, synonyms: ['email', 'mail', 'courriel', 'adresse e mail', 'adresse email', 'adresse mail', 'e mail address'] },
  }),
  vehicule: withExportHeader(VEHICULE_HEADERS, {
    immatriculation: { parse: parseText, synonyms: PLATE_SYNONYMS },
    brand: { parse: parseText, synonyms: ['brand', 'make', 'constructeur'] },
    model: { parse: parseText, synonyms: ['model', 'modele commercial'] },
    type: { parse: parseVehiculeType, synonyms: ['type', 'genre', 'type de vehicule', 'categorie de vehicule', 'category', 'vehicle type'] },
    circulationDate: {
      parse: parseFrenchDate,
      synonyms: ['mise en circulation', 'date de 1ere mise en circulation', 'date 1ere mise en circulation', 'dmec', 'mec', 'date mec', 'date de premiere immatriculation', 'first registration'],
    },
    entryDate: { parse: parseFrenchDate, synonyms: ['date entree', 'entree', 'date d entree dans la flotte', 'entree flotte', 'entry date', 'date debut', 'debut'] },
    exitDate: { parse: parseFrenchDate, synonyms: ['date sortie', 'sortie', 'sortie flotte', 'exit date', 'date fin', 'fin'] },
  }),
  sinister: withExportHeader(SINISTER_HEADERS, {
    sinisterIntermediateRef: {
      parse: parseText,
      synonyms: ['no sinistre', 'num sinistre', 'numero de sinistre', 'numero sinistre', 'n de sinistre', 'ref sinistre', 'reference sinistre', 'reference', 'ref', 'n dossier', 'numero de dossier', 'claim number', 'claim ref', 'claim reference'],
    },
    sinisterDate: {
      parse: parseFrenchDate,
      synonyms: ['date survenance', 'survenance', 'date du sinistre', 'date sinistre', 'date de l accident', 'date accident', 'date', 'loss date', 'date of loss'],
    },
    immatriculation: { parse: parseText, synonyms: PLATE_SYNONYMS },
    driver: { parse: parseText, synonyms: ['conducteur', 'nom du conducteur', 'chauffeur', 'driver', 'driver name'] },
    city: { parse: parseText, synonyms: ['lieu', 'commune', 'lieu du sinistre', 'city', 'location'] },
    status: { parse: parseSinisterStatus, synonyms: ['etat', 'situation', 'etat du dossier', 'status'] },
    openedAt: { parse: parseFrenchDate, synonyms: ['ouverture', 'date de declaration', 'date declaration', 'opened'] },
    closedAt: { parse: parseFrenchDate, synonyms: ['cloture', 'date de fermeture', 'closed'] },
    totalCost: { parse: parseFrenchAmount, synonyms: ['cout', 'charge', 'charge totale', 'charge sinistre', 'montant total', 'total', 'total cost', 'cout du sinistre'] },
    paidAmount: { parse: parseFrenchAmount, synonyms: ['regles', 'montant regle', 'reglements', 'paye', 'paiements', 'montant paye', 'paid'] },
    reserveAmount: { parse: parseFrenchAmount, synonyms: ['provisions', 'reserve', 'reserves', 'sap', 'montant provisionne'] },
    responsibilityRate: { parse: parsePercentage, synonyms: ['taux de responsabilite', 'taux resp', 'resp', 'taux responsabilite', 'responsibility'] },
    ida: { parse: parseFrenchBoolean, synonyms: ['convention ida'] },
    hasHumanInjury: { parse: parseFrenchBoolean, synonyms: ['corporel', 'blesses', 'blessure', 'human injury'] },
    damagedVehicule: { parse: parseFrenchBoolean, synonyms: ['degats vehicule', 'dommages vehicule', 'damaged vehicle'] },
    isThirdImplicated: { parse: parseFrenchBoolean, synonyms: ['tiers', 'third party'] },
    isDeclared: { parse: parseFrenchBoolean, synonyms: ['sinistre declare', 'declared'] },
    description: { parse: parseText, synonyms: ['description', 'commentaire', 'commentaires', 'observations', 'libelle'] },
  }),
};

export function fieldsOf(entity: ImportEntity) {
  return IMPORT_FIELDS[entity];
}

export function labelOf(entity: ImportEntity, key: string): string {
  return IMPORT_FIELDS[entity].find((f) => f.key === key)?.label ?? key;
}

/** How well a header names a field: 3 a synonym exactly, 2 a synonym as its first words, 1 inside it; 0 not at all. */
function score(header: string, synonyms: string[]): number {
  const h = foldHeader(header);
  if (!h) return 0;
  let best = 0;
  for (const s of synonyms) {
    if (h === s) return 3;
    if (h.startsWith(`${s} `)) best = Math.max(best, 2);
    else if (` ${h} `.includes(` ${s} `) && s.length >= 3) best = Math.max(best, 1);
  }
  return best;
}

/**
 * The mapping the screen starts from: the organization's last mapping for this entity where its
 * column still has the same header, then the loosest best match of each remaining field (each
 * column used once, the surest pairs first).
 */
export function suggestMapping(entity: ImportEntity, headers: string[], last: { mapping: ImportMapping; headers: string[] } | null): ImportMapping {
  const mapping: ImportMapping = {};
  const used = new Set<number>();
  const specs = SPECS[entity];
  if (last) {
    for (const [field, index] of Object.entries(last.mapping)) {
      if (!(field in specs)) continue;
      if (index === null) continue;
      const header = last.headers[index];
      const now = header === undefined ? -1 : headers.findIndex((h, i) => !used.has(i) && foldHeader(h) === foldHeader(header));
      if (now >= 0) {
        mapping[field] = now;
        used.add(now);
      }
    }
  }
  const candidates: { field: string; index: number; score: number }[] = [];
  for (const [field, spec] of Object.entries(specs)) {
    if (field in mapping) continue;
    headers.forEach((header, index) => {
      const s = score(header, spec.synonyms);
      if (s > 0) candidates.push({ field, index, score: s });
    });
  }
  candidates.sort((a, b) => b.score - a.score || a.index - b.index);
  for (const c of candidates) {
    if (c.field in mapping || used.has(c.index)) continue;
    mapping[c.field] = c.index;
    used.add(c.index);
  }
  for (const field of Object.keys(specs)) if (!(field in mapping)) mapping[field] = null;
  return mapping;
}

export type RowError = { line: number; field: string | null; column: string | null; message: string };
export type ParsedRow<T> = { line: number; values: T };

/** A mapping's own mistakes: an unknown field, a column the file lacks, a required field not linked, a column linked twice. */
export function mappingIssues(entity: ImportEntity, mode: ImportMode, mapping: ImportMapping, headers: string[]): { path: string; message: string }[] {
  const issues: { path: string; message: string }[] = [];
  const specs = SPECS[entity];
  const seen = new Map<number, string>();
  for (const [field, index] of Object.entries(mapping)) {
    if (!(field in specs)) {
      issues.push({ path: `mapping.${field}`, message: `Champ inconnu : ${field}` });
      continue;
    }
    if (index === null) continue;
    if (index >= headers.length) issues.push({ path: `mapping.${field}`, message: `Le fichier n'a pas de colonne n° ${index + 1}` });
    const other = seen.get(index);
    if (other) issues.push({ path: `mapping.${field}`, message: `La colonne « ${headers[index] ?? index + 1} » est déjà liée à « ${labelOf(entity, other)} »` });
    seen.set(index, field);
  }
  for (const f of IMPORT_FIELDS[entity]) {
    const required = mode === 'compare' ? f.requiredInCompare === true : f.required;
    if (required && (mapping[f.key] === undefined || mapping[f.key] === null)) {
      issues.push({ path: `mapping.${f.key}`, message: `« ${f.label} » est obligatoire : choisissez sa colonne` });
    }
  }
  return issues;
}

function rowSchema(entity: ImportEntity, mode: ImportMode): z.ZodType {
  if (entity === 'driver') return CreateDriverBodySchema;
  if (entity === 'vehicule') return mode === 'compare' ? CompareVehiculeRowSchema : ImportVehiculeRowSchema;
  return ImportSinisterRowSchema;
}

/**
 * Each row through its field parsers (French values), then through the contract's schema, so an
 * imported row obeys the forms' rules. Errors carry the row number Excel shows and the column.
 */
export function parseRows<T>(entity: ImportEntity, mode: ImportMode, mapping: ImportMapping, headers: string[], rows: SheetRow[]) {
  const specs = SPECS[entity];
  const schema = rowSchema(entity, mode);
  const linked = Object.entries(mapping).filter((e): e is [string, number] => e[1] !== null && e[0] in specs);
  const required = new Set(IMPORT_FIELDS[entity].filter((f) => (mode === 'compare' ? f.requiredInCompare : f.required)).map((f) => f.key));
  const valid: ParsedRow<T>[] = [];
  const errors: RowError[] = [];
  for (const row of rows) {
    const raw: Record<string, unknown> = {};
    const rowErrors: RowError[] = [];
    for (const [field, index] of linked) {
      const cell = row.cells[index] ?? null;
      const column = headers[index] ?? null;
      if (isBlank(cell)) {
        if (required.has(field)) rowErrors.push({ line: row.line, field, column, message: `${labelOf(entity, field)} : valeur obligatoire` });
        continue;
      }
      // A NUL far in a text file (the binary check reads its start): PostgreSQL's text holds none.
      if (typeof cell === 'string' && cell.includes('\u0000')) {
        rowErrors.push({ line: row.line, field, column, message: `${labelOf(entity, field)} : caractère invalide (nul) dans la cellule` });
        continue;
      }
      const parsed = specs[field]!.parse(cell);
      if ('error' in parsed) rowErrors.push({ line: row.line, field, column, message: `${parsed.error} : « ${cellText(cell).slice(0, 60)} »` });
      else if (parsed.value !== undefined) raw[field] = parsed.value;
    }
    // The claim's vehicle and driver are looked up later, by plate and name: not claim fields.
    const { immatriculation, driver, ...claim } = raw;
    const input = entity === 'sinister' ? claim : raw;
    if (rowErrors.length === 0) {
      const result = schema.safeParse(input);
      if (!result.success) {
        for (const issue of result.error.issues) {
          const field = typeof issue.path[0] === 'string' ? issue.path[0] : null;
          const index = field ? mapping[field] : null;
          rowErrors.push({ line: row.line, field, column: index === null || index === undefined ? null : (headers[index] ?? null), message: issue.message });
        }
      } else {
        const values = entity === 'sinister' ? { ...(result.data as object), immatriculation, driver } : result.data;
        valid.push({ line: row.line, values: values as T });
      }
    }
    errors.push(...rowErrors);
  }
  return { valid, errors };
}
