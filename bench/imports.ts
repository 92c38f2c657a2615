/**
 * The import scenario of `npm run bench` (issue 13): vehicles from a Windows-1252 CSV as Excel in
 * France writes it (`;`, dd/mm/yyyy dates, accented headers), made at run time, sent to the real
 * server as a browser does: upload + preview, validate with the suggested mapping, commit (above
 * 5 000 rows a background job: GET /api/import/{id} is polled until it is done). Each run imports
 * into an organization of its own, empty, so every run creates all its rows; then the 10 000 rows
 * are imported again with a third of them changed (updates). The server's RSS is sampled every
 * 100 ms from before the upload to the end of the commit.
 *
 * Targets: 10 000 rows from preview to commit in under 3 s with RSS growth under 200 MB;
 * 100 000 rows in under 30 s.
 */
import iconv from 'iconv-lite';
import { logIn } from './mix.js';

export type ImportServer = { origin: string; rss(): Promise<number> };
/** Makes an organization with one user (e-mail, password) and gives its user's e-mail. */
export type MakeOrganization = (label: string) => Promise<string>;

const CATEGORIES = ['VP', 'VUL', 'PL', 'VP', 'VP', 'VUL'];
const BRANDS: [string, string[]][] = [
  ['Renault', ['Clio V', 'Mégane', 'Trafic', 'Master', 'Kangoo']],
  ['Peugeot', ['208', '308', 'Partner', 'Expert', 'Boxer']],
  ['Citroën', ['C3', 'Berlingo', 'Jumpy', 'Jumper']],
  ['Volkswagen', ['Golf', 'Caddy', 'Transporter', 'Crafter']],
  ['Škoda', ['Octavia', 'Fabia']],
];
const LETTERS = 'ABCDEFGHJKLMNPQRSTVWXYZ'.replace('W', '');

/** The i-th plate, SIV (AA-001-AA …), all different up to 22² × 999 × 22². */
export function plateOf(i: number) {
  const digits = (i % 999) + 1;
  let rest = Math.floor(i / 999);
  const letter = () => {
    const l = LETTERS[rest % LETTERS.length]!;
    rest = Math.floor(rest / LETTERS.length);
    return l;
  };
  const right = letter() + letter();
  const left = letter() + letter();
  return `${left}-${String(digits).padStart(3, '0')}-${right}`;
}

const date = (day: number) => {
  const d = new Date(Date.UTC(2015, 0, 1) + day * 86_400_000);
  return `${String(d.getUTCDate()).padStart(2, '0')}/${String(d.getUTCMonth() + 1).padStart(2, '0')}/${d.getUTCFullYear()}`;
};

/**
 * `rows` vehicles as Excel-FR writes them, encoded in Windows-1252. `changed` alters the model of
 * every third row (a re-import: those become updates).
 */
export function vehiclesCsv(rows: number, changed = false): Buffer {
  const lines = ['Immat.;Marque;Modèle;Catégorie;Date de mise en circulation;Date d’entrée'];
  for (let i = 0; i < rows; i++) {
    const [brand, models] = BRANDS[i % BRANDS.length]!;
    const model = models[i % models.length]! + (changed && i % 3 === 0 ? ' (2e main)' : '');
    const circulation = i % 3000;
    lines.push([plateOf(i), brand, model, CATEGORIES[i % CATEGORIES.length], date(circulation), date(circulation + 30 + (i % 200))].join(';'));
  }
  // Excel-FR: CRLF, no BOM; ’ has a Windows-1252 code (0x92).
  return iconv.encode(lines.join('\r\n') + '\r\n', 'windows-1252');
}

function multipart(fileName: string, content: Buffer) {
  const boundary = '----flotte-bench' + Math.random().toString(16).slice(2);
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: text/csv\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { body: Buffer.concat([head, content, tail]), contentType: `multipart/form-data; boundary=${boundary}` };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The server's RSS sampled every 100 ms from `start` until stop() (which answers the peak). One
 * sample at a time: a busy server answers late, and the samples must not pile up.
 */
export function rssSampler(server: { rss(): Promise<number> }, start: number) {
  let peak = start;
  let sampling = true;
  const loop = (async () => {
    while (sampling) {
      peak = Math.max(peak, await server.rss());
      await sleep(100);
    }
  })();
  return {
    get peak() {
      return peak;
    },
    async stop() {
      sampling = false;
      await loop;
      return peak;
    },
  };
}
const MB = 1024 * 1024;
const megabytes = (bytes: number) => `${Math.round(bytes / MB)} Mo`;

type Phase = { name: string; seconds: number; before: number; peak: number; after: number };
export type ImportRun = { label: string; rows: number; phases: Phase[]; total: number; before: number; peak: number; after: number; counts: unknown; /** Measured after the total, outside it. */ revert?: Phase };

async function json<T>(response: Response, what: string): Promise<T> {
  const text = await response.text();
  if (!response.ok) throw new Error(`${what} : ${response.status} ${text.slice(0, 500)}`);
  return JSON.parse(text) as T;
}

/** One import, preview to commit, timed phase by phase with the server's RSS. */
export async function timeImport(server: ImportServer, token: string, label: string, file: Buffer, rows: number, revert = false): Promise<ImportRun> {
  const headers = { authorization: `Bearer ${token}` };
  await sleep(500);
  const start = await server.rss();
  let peak = start;
  const phases: Phase[] = [];
  const phase = async <T>(name: string, work: () => Promise<T>): Promise<T> => {
    const before = await server.rss();
    const sampler = rssSampler(server, before);
    const started = performance.now();
    try {
      const result = await work();
      const seconds = (performance.now() - started) / 1000;
      const after = await server.rss();
      const phasePeak = Math.max(await sampler.stop(), after);
      phases.push({ name, seconds, before, peak: phasePeak, after });
      peak = Math.max(peak, phasePeak);
      return result;
    } finally {
      await sampler.stop();
    }
  };
  const { body, contentType } = multipart(`vehicules-${rows}.csv`, file);
  const preview = await phase('Envoi + aperçu', async () =>
    json<{ importId: string; suggestedMapping: Record<string, number | null>; rowCount: number }>(
      await fetch(`${server.origin}/api/import/vehicule/preview`, { method: 'POST', headers: { ...headers, 'content-type': contentType }, body }),
      'aperçu',
    ),
  );
  if (preview.rowCount !== rows) throw new Error(`aperçu : ${preview.rowCount} lignes lues, ${rows} attendues`);
  const payload = JSON.stringify({ mapping: preview.suggestedMapping, mode: 'upsert' });
  const post = (action: string) => fetch(`${server.origin}/api/import/${preview.importId}/${action}`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: payload });
  const validation = await phase('Validation', async () => json<{ invalid: number }>(await post('validate'), 'validation'));
  if (validation.invalid !== 0) throw new Error(`validation : ${validation.invalid} lignes invalides`);
  const counts: unknown = await phase(rows > 5_000 ? 'Application (tâche de fond)' : 'Application', async () => {
    const result = await json<{ status: string }>(await post('commit'), 'application');
    if (result.status !== 'queued') return result;
    for (;;) {
      await sleep(100);
      const state = await json<{ status: string; counts: unknown; error: string | null }>(await fetch(`${server.origin}/api/import/${preview.importId}`, { headers }), 'suivi');
      if (state.status === 'committed') return state.counts;
      if (state.status === 'failed') throw new Error(`application en tâche de fond : ${state.error}`);
    }
  });
  const after = await server.rss();
  const run: ImportRun = { label, rows, phases, total: phases.reduce((s, p) => s + p.seconds, 0), before: start, peak, after, counts };
  if (revert) {
    await phase('Annulation (hors total)', async () => json<{ restored: number }>(await fetch(`${server.origin}/api/import/${preview.importId}/revert`, { method: 'POST', headers }), 'annulation'));
    run.revert = phases.pop()!;
  }
  return run;
}

export type ImportCase = {
  label: string;
  rows: number;
  changed: boolean;
  /** Into the organization of the previous case (a re-import). */
  again: boolean;
  /** Then reverted (timed apart, outside the total). */
  revert: boolean;
  target: { seconds: number; growthMb?: number };
};

export function importCases(sizes: number[]): ImportCase[] {
  const cases: ImportCase[] = [];
  for (const rows of sizes) {
    const target = rows <= 10_000 ? { seconds: 3, growthMb: 200 } : { seconds: 30 };
    cases.push({ label: `${rows.toLocaleString('fr-FR')} véhicules nouveaux`, rows, changed: false, again: false, revert: false, target });
    if (rows <= 10_000) cases.push({ label: `${rows.toLocaleString('fr-FR')} véhicules à nouveau, un tiers modifiés`, rows, changed: true, again: true, revert: true, target });
  }
  return cases;
}

/**
 * Each case `repeat` times (each time a new organization, or the previous one for a re-import);
 * the best run (shortest total) is kept. Returns the table's lines and the cases over target.
 */
export async function importScenario(server: ImportServer, makeOrganization: MakeOrganization, password: string, sizes: number[], repeat: number) {
  const lines: string[] = [];
  const failing: string[] = [];
  const files = new Map<string, Buffer>();
  const fileOf = (rows: number, changed: boolean) => {
    const key = `${rows}-${changed}`;
    if (!files.has(key)) files.set(key, vehiclesCsv(rows, changed));
    return files.get(key)!;
  };
  const cases = importCases(sizes);
  const best = new Map<ImportCase, ImportRun>();
  /** The organization of the largest import (its vehicles are then exported). */
  let largest: { email: string; rows: number } | null = null;
  for (let attempt = 0; attempt < repeat; attempt++) {
    let token = '';
    for (const c of cases) {
      if (!c.again) {
        const email = await makeOrganization(`${c.rows}-${attempt}`);
        token = (await logIn(server.origin, [email], password))[0]!;
        if (!largest || c.rows >= largest.rows) largest = { email, rows: c.rows };
      }
      const file = fileOf(c.rows, c.changed);
      const run = await timeImport(server, token, c.label, file, c.rows, c.revert);
      console.log(`  ${c.label}, essai ${attempt + 1}/${repeat} : ${run.phases.map((p) => `${p.name} ${p.seconds.toFixed(2)} s`).join(', ')} ; total ${run.total.toFixed(2)} s${run.revert ? ` (puis annulation ${run.revert.seconds.toFixed(2)} s)` : ''} ; RSS ${megabytes(run.before)} → max ${megabytes(run.peak)} → ${megabytes(run.after)} ; ${JSON.stringify(run.counts)}`);
      const previous = best.get(c);
      if (!previous || run.total < previous.total) best.set(c, run);
    }
  }
  for (const c of cases) {
    const run = best.get(c)!;
    const growth = run.peak - run.before;
    const ok = run.total < c.target.seconds && (c.target.growthMb === undefined || growth < c.target.growthMb * MB);
    if (!ok) failing.push(c.label);
    const target = `< ${c.target.seconds} s${c.target.growthMb ? `, RSS + < ${c.target.growthMb} Mo` : ''}`;
    for (const p of run.phases) lines.push(`| ${c.label} | ${p.name} | ${p.seconds.toFixed(2)} | ${megabytes(p.before)} | ${megabytes(p.peak)} | ${megabytes(p.after)} | | |`);
    const r = run.revert;
    const revertLine = r ? [`| ${c.label} | ${r.name} | ${r.seconds.toFixed(2)} | ${megabytes(r.before)} | ${megabytes(r.peak)} | ${megabytes(r.after)} | | |`] : [];
    lines.push(
      `| **${c.label}** | **total** | **${run.total.toFixed(2)}** | ${megabytes(run.before)} | ${megabytes(run.peak)} (+${megabytes(growth)}) | ${megabytes(run.after)} | ${target} | ${ok ? 'oui' : '**non**'} |`,
      ...revertLine,
    );
  }
  return { lines, failing, largest, file: (rows: number) => (fileOf(rows, false).length / MB).toFixed(1) };
}

export const IMPORT_TABLE_HEAD = ['| Lignes | Étape | Durée (s) | RSS avant | RSS max | RSS après | Objectif | Atteint |', '|---|---|---:|---:|---:|---:|---|---|'];
