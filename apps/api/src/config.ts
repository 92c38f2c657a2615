import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

const booleanString = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'attendu : true ou false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

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
  TRUST_PROXY: booleanString.default(false),
  SMTP_HOST: z.string().optional(),
  SMTP_PORT: z.coerce.number().int().min(1).max(65535).default(587),
  SMTP_SECURE: booleanString.default(false),
  SMTP_USER: z.string().optional(),
  SMTP_PASSWORD: z.string().optional(),
  SMTP_FROM: z.string().default('FlotteAssur <no-reply@flotteassur.local>'),
  WEB_DIST: z.string().optional(),
  AUTH_CONTEXT_TTL_MS: z.coerce.number({ error: 'attendu : un nombre de millisecondes' }).int().min(0).max(60_000).default(5_000),
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
  trustProxy: boolean;
  smtp: Readonly<{ host: string | undefined; port: number; secure: boolean; user: string | undefined; password: string | undefined; from: string }>;
  webDist: string | undefined;
  /** How long a caller's roles and organization are reused without a query (0: never). */
  authContextTtlMs: number;
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
  });
}
