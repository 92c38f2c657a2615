import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';

/**
 * A number of `unit` between min and max (whole unless `fraction`), each refusal said in French:
 * given alone, the number's own message would stand for every refusal (« 0 » read « attendu : un
 * nombre de secondes »).
 */
function quantity(unit: string, { min, max, maxNote = '', fraction = false }: { min: number; max: number; maxNote?: string; fraction?: boolean }) {
  const number = z.coerce.number({ error: `attendu : un nombre de ${unit}` });
  return (fraction ? number : number.int({ error: `attendu : un nombre entier de ${unit}` }))
    .min(min, { error: min === 0 ? `attendu : un nombre de ${unit} positif ou nul` : `au moins ${min}` })
    .max(max, { error: `au plus ${max}${maxNote}` });
}

const booleanString = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'attendu : true ou false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** A proxy address: an IP, a CIDR range, or one of proxy-addr's names (loopback, linklocal, uniquelocal). */
function isProxyAddress(entry: string): boolean {
  if (['loopback', 'linklocal', 'uniquelocal'].includes(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  if (rest.length > 0) return false;
  const version = isIP(address);
  if (version === 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (version === 4 ? 32 : 128);
}

/**
 * Which proxies may tell the client's address (X-Forwarded-For, -Proto, -Host): none; the number
 * of proxies in front of the server (hops, counted from the right of X-Forwarded-For); or their
 * addresses. Never "all": the left-most entry is written by the client (decision 014).
 */
const trustProxy = z
  .string()
  .trim()
  .transform((value, context): false | number | readonly string[] => {
    if (['false', '0', 'no'].includes(value)) return false;
    if (/^\d+$/.test(value)) {
      const hops = Number(value);
      if (hops <= 10) return hops;
    }
    const entries = value.split(',').map((entry) => entry.trim()).filter(Boolean);
    if (['true', 'yes'].includes(value)) {
      context.addIssue({
        code: 'custom',
        message: "« true » croirait l'adresse écrite par le client : indiquez le nombre de proxys devant le serveur (ex. 1) ou leurs adresses (ex. 10.0.0.2,10.1.0.0/16)",
      });
      return z.NEVER;
    }
    const bad = entries.filter((entry) => !isProxyAddress(entry));
    if (entries.length === 0 || bad.length > 0) {
      context.addIssue({
        code: 'custom',
        message: `attendu : false, un nombre de proxys (1 à 10) ou des adresses IP / plages CIDR séparées par des virgules${bad.length > 0 ? ` (invalide : ${bad.join(', ')})` : ''}`,
      });
      return z.NEVER;
    }
    return Object.freeze(entries);
  });

const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, { error: 'doit commencer par postgres:// ou postgresql://' })
    .optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  APP_SECRET: z.string().min(32, { error: 'au moins 32 caractères' }).optional(),
  PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  SEED_DEMO: booleanString.optional(),
  DEMO_PASSWORD: z.string().min(8, { error: 'au moins 8 caractères' }).default('Demo1234!'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: trustProxy.default(false),
  SMTP_HOST: z.string().optional(),
  SMTP_PORT: z.coerce.number().int().min(1).max(65535).default(587),
  SMTP_SECURE: booleanString.default(false),
  SMTP_USER: z.string().optional(),
  SMTP_PASSWORD: z.string().optional(),
  SMTP_FROM: z.string().default('FlotteAssur <no-reply@flotteassur.local>'),
  WEB_DIST: z.string().optional(),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, { error: 'doit commencer par redis:// ou rediss://' })
    .optional(),
  AUTH_CONTEXT_TTL_MS: quantity('millisecondes', { min: 0, max: 60_000 }).default(5_000),
  SLOW_STATEMENT_MS: quantity('millisecondes', { min: 0, max: 600_000, maxNote: ' (10 minutes)' }).default(200),
  HTTP_HEADERS_TIMEOUT_SECONDS: quantity('secondes', { min: 1, max: 300 }).default(10),
  HTTP_REQUEST_TIMEOUT_SECONDS: quantity('secondes', { min: 1, max: 3600 }).default(300),
  HEAP_GROWTH_PERCENT: z.coerce
    .number({ error: 'attendu : un pourcentage' })
    .int({ error: 'attendu : un pourcentage entier' })
    .min(0, { error: 'attendu : un pourcentage entre 0 et 300' })
    .max(300, { error: 'attendu : un pourcentage entre 0 et 300' })
    .default(10),
  JOBS_WORKER: booleanString.default(true),
  JOBS_POLL_INTERVAL_SECONDS: quantity('secondes', { min: 0.5, max: 60, fraction: true }).default(2),
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, { error: 'nom de bucket S3 invalide : 3 à 63 caractères, minuscules, chiffres, points et tirets' })
    .optional(),
  S3_ENDPOINT: z.url({ protocol: /^https?$/, error: 'attendu : une URL http(s), ex. http://127.0.0.1:9000' }).optional(),
  S3_REGION: z.string().regex(/^[a-z0-9-]+$/, { error: 'attendu : un nom de région, ex. eu-west-3' }).optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: booleanString.optional(),
  DOCUMENTS_MAX_FILE_MB: z.coerce.number({ error: 'attendu : un nombre de Mo' }).positive({ error: 'attendu : un nombre de Mo positif' }).max(5 * 1024).default(25),
  STRIPE_SECRET_KEY: z.string().regex(/^(sk|rk)_(test|live)_[A-Za-z0-9]+$/, { error: 'attendu : une clé secrète Stripe (sk_test_…, sk_live_… ou rk_…)' }).optional(),
  STRIPE_WEBHOOK_SECRET: z.string().regex(/^whsec_[A-Za-z0-9+/=]+$/, { error: 'attendu : le secret de signature du webhook Stripe (whsec_…)' }).optional(),
  STRIPE_API_URL: z.url({ protocol: /^https?$/, error: 'attendu : une URL http(s), ex. http://127.0.0.1:12111' }).optional(),
  METRICS_TOKEN: z
    .string()
    .min(32, { error: 'au moins 32 caractères (ex. openssl rand -hex 32)' })
    .regex(/^[\x21-\x7e]+$/, { error: 'caractères ASCII visibles seulement, sans espace (ex. openssl rand -hex 32)' })
    .optional(),
  DOCUMENTS_QUOTA_MB: z.coerce.number({ error: 'attendu : un nombre de Mo' }).positive({ error: 'attendu : un nombre de Mo positif' }).max(1024 * 1024).default(5 * 1024),
}).superRefine((e, context) => {
  // Node refuses a headers timeout longer than the request's: the headers are part of the request.
  if (e.HTTP_HEADERS_TIMEOUT_SECONDS > e.HTTP_REQUEST_TIMEOUT_SECONDS) {
    context.addIssue({ code: 'custom', path: ['HTTP_HEADERS_TIMEOUT_SECONDS'], message: `au plus HTTP_REQUEST_TIMEOUT_SECONDS (${e.HTTP_REQUEST_TIMEOUT_SECONDS})` });
  }
  // Stripe's key alone would take payments whose events (signed with the webhook secret) could never be applied.
  if ((e.STRIPE_SECRET_KEY === undefined) !== (e.STRIPE_WEBHOOK_SECRET === undefined)) {
    const missing = e.STRIPE_SECRET_KEY === undefined ? 'STRIPE_SECRET_KEY' : 'STRIPE_WEBHOOK_SECRET';
    context.addIssue({ code: 'custom', path: [missing], message: 'STRIPE_SECRET_KEY et STRIPE_WEBHOOK_SECRET vont ensemble : indiquez les deux, ou aucun (facturation intégrée)' });
  }
  if (e.STRIPE_API_URL !== undefined && e.STRIPE_SECRET_KEY === undefined) {
    context.addIssue({ code: 'custom', path: ['STRIPE_API_URL'], message: "n'a d'effet qu'avec STRIPE_SECRET_KEY" });
  }
  // The S3 variables only mean something together: a lone one is a mistake, not a default.
  const s3Keys = ['S3_ENDPOINT', 'S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'S3_FORCE_PATH_STYLE'] as const;
  if (!e.S3_BUCKET) {
    for (const key of s3Keys.filter((k) => e[k] !== undefined)) {
      context.addIssue({ code: 'custom', path: [key], message: "n'a d'effet qu'avec S3_BUCKET : indiquez S3_BUCKET ou retirez cette variable" });
    }
    return;
  }
  if ((e.S3_ACCESS_KEY_ID === undefined) !== (e.S3_SECRET_ACCESS_KEY === undefined)) {
    const missing = e.S3_ACCESS_KEY_ID === undefined ? 'S3_ACCESS_KEY_ID' : 'S3_SECRET_ACCESS_KEY';
    context.addIssue({ code: 'custom', path: [missing], message: 'S3_ACCESS_KEY_ID et S3_SECRET_ACCESS_KEY vont ensemble : indiquez les deux, ou aucun (identifiants de la machine)' });
  }
});

export type Config = Readonly<{
  port: number;
  host: string;
  databaseUrl: string | undefined;
  dataDir: string;
  appSecret: string;
  publicUrl: string | undefined;
  seedDemo: boolean;
  demoPassword: string;
  logLevel: z.infer<typeof EnvSchema>['LOG_LEVEL'];
  /** Fastify's trustProxy: false, a number of hops, or the proxies' addresses / CIDR ranges. */
  trustProxy: false | number | readonly string[];
  smtp: Readonly<{ host: string | undefined; port: number; secure: boolean; user: string | undefined; password: string | undefined; from: string }>;
  webDist: string | undefined;
  /** How long a caller's roles and organization are reused without a query (0: never). */
  authContextTtlMs: number;
  /** A statement slower than this is logged at warn with its name, duration and organization (decision 046). */
  slowStatementMs: number;
  /**
   * How long a client may take to send a request's headers, and the whole request (body included),
   * before the server answers 408 and closes the connection: a client trickling bytes (slowloris)
   * holds a socket for that long, not forever.
   */
  http: Readonly<{ headersTimeoutMs: number; requestTimeoutMs: number }>;
  /** How far the V8 heap may grow above what survived its last full collection, in % (0: V8's own rule; decision 051). */
  heapGrowthPercent: number;
  /** Redis holding the limits shared by every API process (login failures); unset: PostgreSQL, or memory on the embedded database. */
  redisUrl: string | undefined;
  /** Background jobs (platform/jobs): whether this process runs them, how often an idle kind looks for work. */
  jobs: Readonly<{ worker: boolean; pollIntervalSeconds: number }>;
  /** Where files go: DATA_DIR/media by default, an S3-compatible bucket when S3_BUCKET is set. */
  storage: StorageConfig;
  /** The document management's limits (issue 14): one file, and all of an organization's files. */
  documents: Readonly<{ maxFileBytes: number; quotaBytes: number }>;
  /** Who takes payment (decision 044): Stripe when its keys are set, the embedded provider otherwise. */
  billing: BillingConfig;
  /** The bearer token Prometheus presents at GET /metrics (decision 045); unset: no metrics, /metrics answers 404. */
  metricsToken: string | undefined;
}>;

export type BillingConfig =
  | Readonly<{ kind: 'embedded' }>
  | Readonly<{
      kind: 'stripe';
      secretKey: string;
      webhookSecret: string;
      /** Unset: Stripe itself (tests: a local server answering as Stripe does). */
      apiUrl: string | undefined;
    }>;

export type StorageConfig =
  | Readonly<{ kind: 'local'; directory: string }>
  | Readonly<{
      kind: 's3';
      bucket: string;
      /** Unset: AWS itself. */
      endpoint: string | undefined;
      region: string;
      /** Unset: the SDK's own chain (AWS_* variables, instance or container role). */
      credentials: Readonly<{ accessKeyId: string; secretAccessKey: string }> | undefined;
      forcePathStyle: boolean;
    }>;

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Configuration invalide :\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/** The secret signing tokens: from APP_SECRET, otherwise generated once and kept in DATA_DIR. */
function loadOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, 'app-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

/** Parses the environment once; a bad value stops the start with the list of what is wrong. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const relevant = Object.fromEntries(
    Object.keys(EnvSchema.shape).flatMap((k) => (env[k] === undefined || env[k] === '' ? [] : [[k, env[k]]])),
  );
  const parsed = EnvSchema.safeParse(relevant);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
  }
  const e = parsed.data;
  if (e.SMTP_HOST && !e.PUBLIC_URL) {
    // Without it a link in an e-mail would follow the request's Host header, which its sender
    // writes: a recovery link could point to someone else's site (platform/mail, decision 018).
    throw new ConfigError(["PUBLIC_URL: requis avec SMTP_HOST, pour construire les liens des e-mails (ex. https://flotte.exemple.fr)"]);
  }
  const dataDir = path.resolve(e.DATA_DIR);
  return Object.freeze({
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    dataDir,
    appSecret: e.APP_SECRET ?? loadOrCreateSecret(dataDir),
    publicUrl: e.PUBLIC_URL?.replace(/\/$/, ''),
    seedDemo: e.SEED_DEMO ?? !e.DATABASE_URL,
    demoPassword: e.DEMO_PASSWORD,
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    smtp: Object.freeze({
      host: e.SMTP_HOST,
      port: e.SMTP_PORT,
      secure: e.SMTP_SECURE,
      user: e.SMTP_USER,
      password: e.SMTP_PASSWORD,
      from: e.SMTP_FROM,
    }),
    webDist: e.WEB_DIST,
    authContextTtlMs: e.AUTH_CONTEXT_TTL_MS,
    slowStatementMs: e.SLOW_STATEMENT_MS,
    http: Object.freeze({ headersTimeoutMs: e.HTTP_HEADERS_TIMEOUT_SECONDS * 1000, requestTimeoutMs: e.HTTP_REQUEST_TIMEOUT_SECONDS * 1000 }),
    heapGrowthPercent: e.HEAP_GROWTH_PERCENT,
    redisUrl: e.REDIS_URL,
    jobs: Object.freeze({ worker: e.JOBS_WORKER, pollIntervalSeconds: e.JOBS_POLL_INTERVAL_SECONDS }),
    storage: Object.freeze(
      e.S3_BUCKET
        ? {
            kind: 's3' as const,
            bucket: e.S3_BUCKET,
            endpoint: e.S3_ENDPOINT,
            region: e.S3_REGION ?? 'us-east-1',
            credentials:
              e.S3_ACCESS_KEY_ID !== undefined && e.S3_SECRET_ACCESS_KEY !== undefined
                ? Object.freeze({ accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY })
                : undefined,
            forcePathStyle: e.S3_FORCE_PATH_STYLE ?? false,
          }
        : { kind: 'local' as const, directory: path.join(dataDir, 'media') },
    ),
    documents: Object.freeze({
      maxFileBytes: Math.round(e.DOCUMENTS_MAX_FILE_MB * 1024 * 1024),
      quotaBytes: Math.round(e.DOCUMENTS_QUOTA_MB * 1024 * 1024),
    }),
    billing: Object.freeze(
      e.STRIPE_SECRET_KEY && e.STRIPE_WEBHOOK_SECRET
        ? { kind: 'stripe' as const, secretKey: e.STRIPE_SECRET_KEY, webhookSecret: e.STRIPE_WEBHOOK_SECRET, apiUrl: e.STRIPE_API_URL }
        : { kind: 'embedded' as const },
    ),
    metricsToken: e.METRICS_TOKEN,
  });
}
