import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

const tmp = () => mkdtempSync(path.join(tmpdir(), 'flotte-config-'));

describe('loadConfig', () => {
  it('applies the documented defaults on the embedded database', () => {
    const dataDir = tmp();
    const config = loadConfig({ DATA_DIR: dataDir });
    expect(config).toMatchObject({ port: 3000, host: '127.0.0.1', databaseUrl: undefined, seedDemo: true, demoPassword: 'Demo1234!', logLevel: 'info', dataDir });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('generates APP_SECRET once, keeps it in DATA_DIR (mode 600) and reuses it', () => {
    const dataDir = tmp();
    const first = loadConfig({ DATA_DIR: dataDir });
    const second = loadConfig({ DATA_DIR: dataDir });
    expect(first.appSecret.length).toBeGreaterThanOrEqual(32);
    expect(second.appSecret).toBe(first.appSecret);
    const file = path.join(dataDir, 'app-secret');
    expect(readFileSync(file, 'utf8')).toBe(first.appSecret);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('does not seed by default on a PostgreSQL server, unless asked', () => {
    const dataDir = tmp();
    expect(loadConfig({ DATA_DIR: dataDir, DATABASE_URL: 'postgres://u@h/db' }).seedDemo).toBe(false);
    expect(loadConfig({ DATA_DIR: dataDir, DATABASE_URL: 'postgres://u@h/db', SEED_DEMO: 'true' }).seedDemo).toBe(true);
    expect(loadConfig({ DATA_DIR: dataDir, SEED_DEMO: 'false' }).seedDemo).toBe(false);
  });

  it('stops with the list of every bad value', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'abc', DATABASE_URL: 'mysql://x', APP_SECRET: 'court', LOG_LEVEL: 'bavard', SEED_DEMO: 'peut-être', PUBLIC_URL: 'pas une url' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.map((p) => p.split(':')[0]);
    expect(problems.sort()).toEqual(['APP_SECRET', 'DATABASE_URL', 'LOG_LEVEL', 'PORT', 'PUBLIC_URL', 'SEED_DEMO']);
    expect((error as ConfigError).message).toMatch(/^Configuration invalide/);
  });

  it('keeps callers\' contexts 5 s by default; AUTH_CONTEXT_TTL_MS=0 turns that off; anything else is refused', () => {
    expect(loadConfig({ DATA_DIR: tmp() }).authContextTtlMs).toBe(5000);
    expect(loadConfig({ DATA_DIR: tmp(), AUTH_CONTEXT_TTL_MS: '0' }).authContextTtlMs).toBe(0);
    for (const bad of ['abc', '-1', '1.5', '600000']) {
      expect(() => loadConfig({ DATA_DIR: tmp(), AUTH_CONTEXT_TTL_MS: bad })).toThrow(/AUTH_CONTEXT_TTL_MS/);
    }
  });

  it('logs statements over 200 ms by default; SLOW_STATEMENT_MS takes a whole number of milliseconds, 0 logs them all', () => {
    expect(loadConfig({ DATA_DIR: tmp() }).slowStatementMs).toBe(200);
    expect(loadConfig({ DATA_DIR: tmp(), SLOW_STATEMENT_MS: '0' }).slowStatementMs).toBe(0);
    expect(loadConfig({ DATA_DIR: tmp(), SLOW_STATEMENT_MS: '1500' }).slowStatementMs).toBe(1500);
    expect(() => loadConfig({ DATA_DIR: tmp(), SLOW_STATEMENT_MS: 'lent' })).toThrow(/SLOW_STATEMENT_MS: attendu : un nombre de millisecondes/);
    expect(() => loadConfig({ DATA_DIR: tmp(), SLOW_STATEMENT_MS: '-5' })).toThrow(/SLOW_STATEMENT_MS: attendu : un nombre de millisecondes positif ou nul/);
    expect(() => loadConfig({ DATA_DIR: tmp(), SLOW_STATEMENT_MS: '2.5' })).toThrow(/SLOW_STATEMENT_MS: attendu : un nombre entier de millisecondes/);
    expect(() => loadConfig({ DATA_DIR: tmp(), SLOW_STATEMENT_MS: '3600000' })).toThrow(/SLOW_STATEMENT_MS: au plus 600000/);
  });

  it('bounds a request\u2019s headers to 10 s and the whole request to 300 s by default; the headers never longer than the request', () => {
    expect(loadConfig({ DATA_DIR: tmp() }).http).toEqual({ headersTimeoutMs: 10_000, requestTimeoutMs: 300_000 });
    expect(loadConfig({ DATA_DIR: tmp(), HTTP_HEADERS_TIMEOUT_SECONDS: '4', HTTP_REQUEST_TIMEOUT_SECONDS: '7' }).http).toEqual({ headersTimeoutMs: 4_000, requestTimeoutMs: 7_000 });
    expect(() => loadConfig({ DATA_DIR: tmp(), HTTP_HEADERS_TIMEOUT_SECONDS: '20', HTTP_REQUEST_TIMEOUT_SECONDS: '10' })).toThrow(/HTTP_HEADERS_TIMEOUT_SECONDS.*au plus HTTP_REQUEST_TIMEOUT_SECONDS \(10\)/);
    expect(() => loadConfig({ DATA_DIR: tmp(), HTTP_REQUEST_TIMEOUT_SECONDS: '0' })).toThrow(ConfigError);
    // Each refusal says what is wrong (the number's own message no longer stands for all of them).
    expect(() => loadConfig({ DATA_DIR: tmp(), HTTP_REQUEST_TIMEOUT_SECONDS: '0' })).toThrow(/HTTP_REQUEST_TIMEOUT_SECONDS: au moins 1/);
    expect(() => loadConfig({ DATA_DIR: tmp(), HTTP_HEADERS_TIMEOUT_SECONDS: '301' })).toThrow(/HTTP_HEADERS_TIMEOUT_SECONDS: au plus 300/);
    expect(() => loadConfig({ DATA_DIR: tmp(), AUTH_CONTEXT_TTL_MS: '1.5' })).toThrow(/AUTH_CONTEXT_TTL_MS: attendu : un nombre entier de millisecondes/);
    expect(() => loadConfig({ DATA_DIR: tmp(), JOBS_POLL_INTERVAL_SECONDS: '0.1' })).toThrow(/JOBS_POLL_INTERVAL_SECONDS: au moins 0.5/);
  });

  it('lets the heap grow 10 % above what the server holds by default; 0 leaves V8\u2019s own rule (decision 051)', () => {
    expect(loadConfig({ DATA_DIR: tmp() }).heapGrowthPercent).toBe(10);
    expect(loadConfig({ DATA_DIR: tmp(), HEAP_GROWTH_PERCENT: '0' }).heapGrowthPercent).toBe(0);
    expect(loadConfig({ DATA_DIR: tmp(), HEAP_GROWTH_PERCENT: '50' }).heapGrowthPercent).toBe(50);
    expect(() => loadConfig({ DATA_DIR: tmp(), HEAP_GROWTH_PERCENT: 'peu' })).toThrow(/HEAP_GROWTH_PERCENT: attendu : un pourcentage/);
    expect(() => loadConfig({ DATA_DIR: tmp(), HEAP_GROWTH_PERCENT: '12.5' })).toThrow(/HEAP_GROWTH_PERCENT: attendu : un pourcentage entier/);
    expect(() => loadConfig({ DATA_DIR: tmp(), HEAP_GROWTH_PERCENT: '-1' })).toThrow(/HEAP_GROWTH_PERCENT: attendu : un pourcentage entre 0 et 300/);
  });

  it('uses no Redis by default; REDIS_URL takes a redis:// or rediss:// address, nothing else', () => {
    expect(loadConfig({ DATA_DIR: tmp() }).redisUrl).toBeUndefined();
    expect(loadConfig({ DATA_DIR: tmp(), REDIS_URL: 'redis://127.0.0.1:6379/2' }).redisUrl).toBe('redis://127.0.0.1:6379/2');
    expect(loadConfig({ DATA_DIR: tmp(), REDIS_URL: 'rediss://cache.example:6380' }).redisUrl).toBe('rediss://cache.example:6380');
    for (const bad of ['127.0.0.1:6379', 'http://redis', 'memcached://x']) {
      expect(() => loadConfig({ DATA_DIR: tmp(), REDIS_URL: bad })).toThrow(/REDIS_URL: doit commencer par redis:\/\/ ou rediss:\/\//);
    }
  });

  it('runs background jobs by default, polling every 2 s; JOBS_WORKER=false only sends; bad values are refused', () => {
    expect(loadConfig({ DATA_DIR: tmp() }).jobs).toEqual({ worker: true, pollIntervalSeconds: 2 });
    expect(loadConfig({ DATA_DIR: tmp(), JOBS_WORKER: 'false', JOBS_POLL_INTERVAL_SECONDS: '0.5' }).jobs).toEqual({ worker: false, pollIntervalSeconds: 0.5 });
    expect(() => loadConfig({ DATA_DIR: tmp(), JOBS_WORKER: 'peut-être' })).toThrow(/JOBS_WORKER/);
    for (const bad of ['abc', '0.1', '61']) {
      expect(() => loadConfig({ DATA_DIR: tmp(), JOBS_POLL_INTERVAL_SECONDS: bad })).toThrow(/JOBS_POLL_INTERVAL_SECONDS/);
    }
  });

  it('trusts no proxy by default; TRUST_PROXY takes a number of hops or the proxies\u2019 addresses, never true', () => {
    expect(loadConfig({ DATA_DIR: tmp() }).trustProxy).toBe(false);
    expect(loadConfig({ DATA_DIR: tmp(), TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ DATA_DIR: tmp(), TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadConfig({ DATA_DIR: tmp(), TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ DATA_DIR: tmp(), TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ DATA_DIR: tmp(), TRUST_PROXY: ' 10.0.0.2, 10.1.0.0/16,fd00::/8 ' }).trustProxy).toEqual(['10.0.0.2', '10.1.0.0/16', 'fd00::/8']);
    expect(loadConfig({ DATA_DIR: tmp(), TRUST_PROXY: 'loopback' }).trustProxy).toEqual(['loopback']);
    expect(() => loadConfig({ DATA_DIR: tmp(), TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY: « true » croirait l'adresse écrite par le client/);
    for (const bad of ['yes', 'abc', '10.0.0.300', '10.0.0.0/40', '10.0.0.1,,x', '11', '-1', 'proxy.interne']) {
      expect(() => loadConfig({ DATA_DIR: tmp(), TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY/);
    }
  });

  it('needs PUBLIC_URL to send e-mails over SMTP, so that no link follows a request\u2019s Host header', () => {
    expect(() => loadConfig({ DATA_DIR: tmp(), SMTP_HOST: 'smtp.exemple.fr' })).toThrow(/PUBLIC_URL: requis avec SMTP_HOST/);
    const config = loadConfig({ DATA_DIR: tmp(), SMTP_HOST: 'smtp.exemple.fr', PUBLIC_URL: 'https://flotte.exemple.fr/' });
    expect(config.smtp).toMatchObject({ host: 'smtp.exemple.fr', port: 587, secure: false });
    expect(config.publicUrl).toBe('https://flotte.exemple.fr');
    expect(loadConfig({ DATA_DIR: tmp() }).smtp.host).toBeUndefined();
  });

  it('stores files in DATA_DIR/media by default, in an S3 bucket when S3_BUCKET is set', () => {
    const dataDir = tmp();
    expect(loadConfig({ DATA_DIR: dataDir }).storage).toEqual({ kind: 'local', directory: path.join(dataDir, 'media') });
    expect(loadConfig({ DATA_DIR: dataDir, S3_BUCKET: 'flotte-fichiers' }).storage).toEqual({
      kind: 's3',
      bucket: 'flotte-fichiers',
      endpoint: undefined,
      region: 'us-east-1',
      credentials: undefined,
      forcePathStyle: false,
    });
    const s3 = loadConfig({
      DATA_DIR: dataDir,
      S3_BUCKET: 'flotte-fichiers',
      S3_ENDPOINT: 'http://127.0.0.1:9000',
      S3_REGION: 'eu-west-3',
      S3_ACCESS_KEY_ID: 'cle',
      S3_SECRET_ACCESS_KEY: 'secret',
      S3_FORCE_PATH_STYLE: 'true',
    });
    expect(s3.storage).toEqual({
      kind: 's3',
      bucket: 'flotte-fichiers',
      endpoint: 'http://127.0.0.1:9000',
      region: 'eu-west-3',
      credentials: { accessKeyId: 'cle', secretAccessKey: 'secret' },
      forcePathStyle: true,
    });
    expect(Object.isFrozen(s3.storage)).toBe(true);
  });

  it('refuses S3 variables without S3_BUCKET, one credential without the other, and bad values, in French', () => {
    const problems = (env: Record<string, string>) => {
      try {
        loadConfig({ DATA_DIR: tmp(), ...env });
      } catch (error) {
        return (error as ConfigError).problems;
      }
      return [];
    };
    expect(problems({ S3_ENDPOINT: 'http://127.0.0.1:9000', S3_FORCE_PATH_STYLE: 'true' })).toEqual([
      "S3_ENDPOINT: n'a d'effet qu'avec S3_BUCKET : indiquez S3_BUCKET ou retirez cette variable",
      "S3_FORCE_PATH_STYLE: n'a d'effet qu'avec S3_BUCKET : indiquez S3_BUCKET ou retirez cette variable",
    ]);
    expect(problems({ S3_BUCKET: 'flotte', S3_ACCESS_KEY_ID: 'cle' })).toEqual([
      'S3_SECRET_ACCESS_KEY: S3_ACCESS_KEY_ID et S3_SECRET_ACCESS_KEY vont ensemble : indiquez les deux, ou aucun (identifiants de la machine)',
    ]);
    expect(problems({ S3_BUCKET: 'flotte', S3_SECRET_ACCESS_KEY: 'secret' }).map((p) => p.split(':')[0])).toEqual(['S3_ACCESS_KEY_ID']);
    const bad = problems({ S3_BUCKET: 'Mon_Bucket', S3_ENDPOINT: 'ftp://x', S3_REGION: 'Paris 1', S3_FORCE_PATH_STYLE: 'peut-être' });
    expect(bad.map((p) => p.split(':')[0]).sort()).toEqual(['S3_BUCKET', 'S3_ENDPOINT', 'S3_FORCE_PATH_STYLE', 'S3_REGION']);
    expect(bad.find((p) => p.startsWith('S3_BUCKET'))).toBe('S3_BUCKET: nom de bucket S3 invalide : 3 à 63 caractères, minuscules, chiffres, points et tirets');
  });

  it('bills through Stripe with both of its keys, through the embedded provider without them (decision 044)', () => {
    expect(loadConfig({ DATA_DIR: tmp() }).billing).toEqual({ kind: 'embedded' });
    const stripe = loadConfig({ DATA_DIR: tmp(), STRIPE_SECRET_KEY: 'sk_test_abc123', STRIPE_WEBHOOK_SECRET: 'whsec_abc123', STRIPE_API_URL: 'http://127.0.0.1:12111' });
    expect(stripe.billing).toEqual({ kind: 'stripe', secretKey: 'sk_test_abc123', webhookSecret: 'whsec_abc123', apiUrl: 'http://127.0.0.1:12111' });
    expect(Object.isFrozen(stripe.billing)).toBe(true);
  });

  it('refuses one Stripe key without the other, an API address without key, and malformed keys, in French', () => {
    const problems = (env: Record<string, string>) => {
      try {
        loadConfig({ DATA_DIR: tmp(), ...env });
      } catch (error) {
        return (error as ConfigError).problems;
      }
      return [];
    };
    expect(problems({ STRIPE_SECRET_KEY: 'sk_test_abc123' })).toEqual([
      'STRIPE_WEBHOOK_SECRET: STRIPE_SECRET_KEY et STRIPE_WEBHOOK_SECRET vont ensemble : indiquez les deux, ou aucun (facturation intégrée)',
    ]);
    expect(problems({ STRIPE_WEBHOOK_SECRET: 'whsec_abc123' }).map((p) => p.split(':')[0])).toEqual(['STRIPE_SECRET_KEY']);
    expect(problems({ STRIPE_API_URL: 'http://127.0.0.1:12111' })).toEqual(["STRIPE_API_URL: n'a d'effet qu'avec STRIPE_SECRET_KEY"]);
    const bad = problems({ STRIPE_SECRET_KEY: 'pk_test_abc', STRIPE_WEBHOOK_SECRET: 'secret' });
    expect(bad.map((p) => p.split(':')[0]).sort()).toEqual(['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET']);
  });

  it('serves no metrics by default; METRICS_TOKEN turns them on, and a short or spaced token is refused in French (decision 045)', () => {
    expect(loadConfig({ DATA_DIR: tmp() }).metricsToken).toBeUndefined();
    const token = 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8';
    expect(loadConfig({ DATA_DIR: tmp(), METRICS_TOKEN: token }).metricsToken).toBe(token);
    const problems = (value: string) => {
      try {
        loadConfig({ DATA_DIR: tmp(), METRICS_TOKEN: value });
      } catch (error) {
        return (error as ConfigError).problems;
      }
      return [];
    };
    expect(problems('court')).toEqual(['METRICS_TOKEN: au moins 32 caractères (ex. openssl rand -hex 32)']);
    expect(problems(`${'x'.repeat(20)} ${'y'.repeat(20)}`)).toEqual(['METRICS_TOKEN: caractères ASCII visibles seulement, sans espace (ex. openssl rand -hex 32)']);
    expect(problems(`${'é'.repeat(40)}`)).toEqual(['METRICS_TOKEN: caractères ASCII visibles seulement, sans espace (ex. openssl rand -hex 32)']);
  });

  it('ignores empty variables', () => {
    expect(loadConfig({ DATA_DIR: tmp(), PORT: '', APP_SECRET: 'x'.repeat(32) }).port).toBe(3000);
  });
});
