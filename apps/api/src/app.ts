import { fileURLToPath } from 'node:url';
import cookie from '@fastify/cookie';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config.js';
import type { Database, DatabaseHandle } from './db/client.js';
import { ServiceUnavailableError, SHUTTING_DOWN_MESSAGE } from './errors.js';
import { serializeSharedPagesOnce } from './lib/page-cache.js';
import { ContextCache } from './lib/context-cache.js';
import { AccessTokens, type Clock } from './lib/tokens.js';
import { alertJobs } from './modules/alerts/alerts.jobs.js';
import { alertsRoutes, evaluateAlertsAfterWrites } from './modules/alerts/alerts.routes.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { sessionsRoutes } from './modules/auth/sessions.routes.js';
import { brokerRoutes } from './modules/broker/broker.routes.js';
import { createAuthService } from './modules/auth/auth.service.js';
import { createRecoveryService } from './modules/auth/recovery.service.js';
import { signupRoutes } from './modules/auth/signup.routes.js';
import { createSignupService } from './modules/auth/signup.service.js';
import { onboardingRoutes } from './modules/onboarding/onboarding.routes.js';
import { createTotpService } from './modules/auth/totp.service.js';
import { dashboardRoutes } from './modules/dashboard/dashboard.routes.js';
import { documentJobs } from './modules/documents/documents.jobs.js';
import { documentsRoutes } from './modules/documents/documents.routes.js';
import { renewalReportRoutes } from './modules/dashboard/renewal-report.routes.js';
import { driversRoutes } from './modules/drivers/drivers.routes.js';
import { insuranceContractRoutes } from './modules/insurance-contract/insurance-contract.routes.js';
import { insuranceIntermediaryRoutes } from './modules/insurance-intermediary/insurance-intermediary.routes.js';
import { environmentsRoutes } from './modules/environments/environments.routes.js';
import { importJobs } from './modules/import/import.jobs.js';
import { importRoutes } from './modules/import/import.routes.js';
import { indicatorsRoutes } from './modules/indicators/indicators.routes.js';
import { invitationsRoutes } from './modules/organizations/invitations.routes.js';
import { createInvitationsService } from './modules/organizations/invitations.service.js';
import { organizationExportRoutes } from './modules/organizations/organization-export.routes.js';
import { organizationsRoutes } from './modules/organizations/organizations.routes.js';
import { reportsRoutes } from './modules/reports/reports.routes.js';
import { sinistersRoutes } from './modules/sinisters/sinisters.routes.js';
import { surveyResponseRoutes, surveysRoutes } from './modules/surveys/surveys.routes.js';
import { usersRoutes } from './modules/users/users.routes.js';
import { accountRoutes, avatarFileRoutes } from './modules/users/account.routes.js';
import { logoFileRoutes, logosRoutes } from './modules/logos/logos.routes.js';
import { vehiculesRoutes } from './modules/vehicules/vehicules.routes.js';
import { billingRoutes, billingWebhookRoutes } from './modules/billing/billing.routes.js';
import { type BillingProvider, createBilling } from './platform/billing/billing.js';
import { createFailureStore } from './platform/failure-stores.js';
import { JobQueue } from './platform/jobs/job-queue.js';
import { createMailer } from './platform/mail/mailer.js';
import { mailService, type MailService, platformJobs } from './platform/platform-jobs.js';
import { createStorage, type ObjectStorage } from './platform/storage/storage.js';
import { authenticatePlugin } from './plugins/authenticate.js';
import { auditLogRoutes } from './modules/audit-log/audit-log.routes.js';
import { clientErrorHandler, frameworkErrorHandler, registerErrorHandlers } from './plugins/error-handler.js';
import { healthRoutes, type ReadinessCheck } from './plugins/health.js';
import { loggerOptions, registerRequestLog, requestIdGenerator } from './plugins/request-log.js';
import { registerIdempotency } from './plugins/idempotency.js';
import { registerRouteAccess } from './plugins/route-access.js';
import { registerSecurityHeaders, securityHeadersFor } from './plugins/security-headers.js';
import { registerSwagger } from './plugins/swagger.js';
import { registerWeb } from './plugins/web.js';
import { type AfterAnswer, createAfterAnswer } from './lib/after-answer.js';
import { LoginLimits } from './lib/login-limits.js';
import { pageCacheSize } from './lib/page-cache.js';
import { createMetrics } from './platform/metrics/metrics.js';
import { registerMetrics, registerMetricsOff } from './platform/metrics/metrics-plugin.js';
import { attachObservations } from './platform/metrics/observations.js';
import { activeTracing } from './platform/tracing/requested.js';

declare module 'fastify' {
  interface FastifyInstance {
    db: Database;
    databaseKind: DatabaseHandle['kind'];
    /** The background job queue (platform/jobs): register kinds before ready, send from services. */
    jobs: JobQueue;
    /** Files: store them through platform/storage/files.ts (stage → transaction → commit). */
    storage: ObjectStorage;
    /** E-mails: queued in the caller's transaction, delivered by a job (platform/platform-jobs.ts). */
    mail: MailService;
    /** Payments (platform/billing, decision 044): Stripe, or the embedded provider without its keys. */
    billing: BillingProvider;
    /** Work a request starts after its answer (lib/after-answer.ts); awaited when the app closes. */
    afterAnswer: AfterAnswer;
  }
}

export const DEFAULT_WEB_DIST = fileURLToPath(new URL('../../web/dist', import.meta.url));

export type BuildAppOptions = {
  /** Serve the built web app (off in API tests). */
  serveWeb?: boolean;
  logger?: boolean;
  /** Tests: the log lines (JSON) go here, at the configured level. */
  logStream?: NodeJS.WritableStream;
  /** What else GET /api/ready checks besides the database (and Redis when it holds the limits): the job queue… */
  readinessChecks?: readonly ReadinessCheck[];
  /** Start the job queue when the app is ready (off only to render the OpenAPI document, without a database). */
  startJobs?: boolean;
  /** Tests: the clock the access tokens and the sessions' lifetimes are counted by (Date.now by default). */
  now?: Clock;
};

/**
 * Fastify's trust of forwarding headers from the configured proxies (decision 014). A number of
 * hops becomes a function trusting that many addresses from the socket's side: Fastify 5 itself
 * ignores a number (it cannot check the peer), and `true` would take the left-most
 * X-Forwarded-For entry, which the client writes.
 */
export function fastifyTrustProxy(trust: Config['trustProxy']): false | string[] | ((address: string, hop: number) => boolean) {
  if (trust === false || trust === 0) return false;
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return [...trust];
}

export async function buildApp(config: Config, database: DatabaseHandle, options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const headersFor = securityHeadersFor({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // MUI (emotion) injects its styles at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        // blob: the documents' previews and thumbnails, fetched with the bearer (decision 030).
        imgSrc: ["'self'", 'data:', 'https:', 'blob:'],
        // A PDF's preview is shown by the browser's viewer in a frame of a blob URL.
        frameSrc: ["'self'", 'blob:'],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
    // Over plain http on localhost, HSTS would break the demo.
    hsts: Boolean(config.publicUrl?.startsWith('https:')),
  });
  const app = Fastify({
    logger: options.logStream ? loggerOptions(config, options.logStream) : options.logger === false ? false : loggerOptions(config),
    // Fastify's own request lines write the URL with its query (search terms): one line of our
    // own per request instead (plugins/request-log.ts, decision 046).
    logController: new LogController({ disableRequestLogging: true }),
    trustProxy: fastifyTrustProxy(config.trustProxy),
    // The support reference: a random id, or a trusted proxy's (plugins/request-log.ts).
    genReqId: requestIdGenerator(config.trustProxy),
    bodyLimit: 1024 * 1024,
    // Fastify turns Node's request timeout off (0) and sets no socket timeout: a client trickling
    // a body held its socket forever. Both bounds, checked every second (Node checks every 30 s).
    requestTimeout: config.http.requestTimeoutMs,
    http: { headersTimeout: config.http.headersTimeoutMs, requestTimeout: config.http.requestTimeoutMs, connectionsCheckingInterval: 1_000 },
    // Errors met before a route is found (a malformed URL, a path parameter too long, a request
    // Node's parser refuses): the same French envelope and headers as every answer (decision 013).
    frameworkErrors: frameworkErrorHandler(headersFor),
    clientErrorHandler: clientErrorHandler(headersFor),
    // Fastify's own 503 while closing is English and bare: ours below is the French envelope.
    return503OnClosing: false,
  }).withTypeProvider<ZodTypeProvider>();

  // Before any route: every route under /api declares its roles and scope (decision 048).
  registerRouteAccess(app);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler((route) => serializeSharedPagesOnce(serializerCompiler(route as Parameters<typeof serializerCompiler>[0])));
  app.decorate('db', database.db);
  app.decorate('databaseKind', database.kind);
  // Before any route too: the routes declaring config.idempotent honour Idempotency-Key (decision 050).
  registerIdempotency(app);
  const storage = await createStorage(config.storage);
  app.decorate('storage', storage);
  app.addHook('onClose', async () => storage.close());
  const jobs = new JobQueue(database, { logger: app.log, worker: config.jobs.worker, pollingIntervalSeconds: config.jobs.pollIntervalSeconds });
  app.decorate('jobs', jobs);
  const mailer = createMailer({ smtp: config.smtp, dataDir: config.dataDir });
  app.addHook('onClose', async () => mailer.close());
  const billing = createBilling(config.billing, database.db);
  app.decorate('billing', billing);
  const platform = platformJobs({ db: database.db, mailer, storage, logger: app.log, billing });
  jobs.register(...platform.all);
  app.decorate('mail', mailService(jobs.send.bind(jobs), platform.mailDelivery));
  const afterAnswer = createAfterAnswer(app.log);
  app.decorate('afterAnswer', afterAnswer);
  app.addHook('onClose', () => afterAnswer.settled());
  const imports = importJobs({ db: database.db, storage, mail: () => app.mail, publicUrl: config.publicUrl, logger: app.log });
  jobs.register(imports.commit as never, imports.cleanup as never);
  const documentsJobs = documentJobs({ db: database.db, storage, mail: () => app.mail, publicUrl: config.publicUrl, logger: app.log });
  jobs.register(documentsJobs.purgeTrash as never, documentsJobs.expiryNotices as never);
  const alerts = alertJobs({ db: database.db, mail: () => app.mail, publicUrl: config.publicUrl, logger: app.log });
  jobs.register(alerts.evaluate as never, alerts.daily as never, alerts.digest as never);
  if (options.startJobs !== false) app.addHook('onReady', () => jobs.start());
  // Closing stops taking jobs at once, beside the HTTP requests' end; running jobs get up to
  // 8 s, and the database closes after (server.ts exits 10 s after SIGTERM at the latest).
  app.addHook('preClose', (done) => {
    void jobs.stop();
    done();
  });
  app.addHook('onClose', () => jobs.stop());
  registerErrorHandlers(app);
  // Login failures counted where every process sees them (decision 020).
  const failures = await createFailureStore(config, database, app.log);
  app.addHook('onClose', () => failures.store.close());
  if (config.metricsToken) {
    // Metrics (decision 045): only with their token, and one registry per app.
    const metrics = createMetrics({
      database,
      pageCache: () => pageCacheSize(database.db),
      jobs: { running: () => jobs.runningCount, waiting: () => jobs.waiting() },
      dataDir: config.dataDir,
    });
    const detach = attachObservations(database.db, metrics.observations);
    app.addHook('onClose', async () => detach());
    registerMetrics(app, { metrics, token: config.metricsToken, limits: new LoginLimits(failures.store) });
  } else {
    registerMetricsOff(app);
  }

  registerRequestLog(app, { slowStatementMs: config.slowStatementMs, statements: database.statements });
  // Traces (decision 047): a span per statement, when the process started them (server.ts).
  const tracing = activeTracing();
  if (tracing) {
    const stop = tracing.traceStatements(database.statements);
    app.addHook('onClose', async () => stop());
  }

  registerSecurityHeaders(app, headersFor);
  // After the request's id, log line and headers, before anything else: a stopping server says so.
  refuseWhileClosing(app);
  await app.register(cookie);
  await registerSwagger(app);

  const tokens = new AccessTokens(config.appSecret, options.now);
  const contexts = new ContextCache(config.authContextTtlMs);
  await app.register(authenticatePlugin, { tokens, contexts });
  // An ended session must not outlive its cached context in this process.
  const totp = createTotpService(database.db, { appSecret: config.appSecret, failureStore: failures.store });
  const auth = createAuthService(database.db, tokens, { onSessionsEnded: () => contexts.clear(), failureStore: failures.store, totp, now: options.now });
  const recovery = createRecoveryService(database.db, { failureStore: failures.store, mail: () => app.mail, afterAnswer, onSessionsEnded: () => contexts.clear() });
  const invitations = createInvitationsService(database.db, { mail: () => app.mail });
  const signup = createSignupService(database.db, { failureStore: failures.store, mail: () => app.mail });
  const readinessChecks: ReadinessCheck[] = [
    { name: 'database', check: () => database.ping() },
    ...(failures.ping ? [{ name: 'redis', check: failures.ping }] : []),
    ...(options.startJobs !== false ? [{ name: 'queue', check: () => jobs.isReady() }] : []),
    ...(options.readinessChecks ?? []),
  ];

  await app.register(
    async (api) => {
      await api.register(healthRoutes, { checks: readinessChecks });
      await api.register(authRoutes, { auth, recovery, totp, publicUrl: config.publicUrl });
      await api.register(avatarFileRoutes);
      await api.register(logoFileRoutes);
      await api.register(signupRoutes, { signup, auth, publicUrl: config.publicUrl });
      await api.register(surveyResponseRoutes);
      await api.register(billingWebhookRoutes);
      await api.register(async (protectedApi) => {
        protectedApi.addHook('onRequest', app.authenticate);
        protectedApi.addHook('onResponse', evaluateAlertsAfterWrites({ jobs: { send: jobs.send.bind(jobs) } }, alerts.evaluate));
        await protectedApi.register(usersRoutes);
        // The account page (decision 036): its sessions, avatar, e-mail change, organizations, deletion.
        await protectedApi.register(sessionsRoutes, { onSessionsEnded: () => contexts.clear(), now: options.now ?? Date.now });
        await protectedApi.register(accountRoutes, {
          publicUrl: config.publicUrl,
          mail: () => app.mail,
          confirmPassword: auth.checkOwnPassword,
          onSessionsEnded: () => contexts.clear(),
        });
        await protectedApi.register(organizationsRoutes, { publicUrl: config.publicUrl, mail: () => app.mail, onSessionsEnded: () => contexts.clear() });
        await protectedApi.register(organizationExportRoutes);
        await protectedApi.register(environmentsRoutes, { publicUrl: config.publicUrl, onContextChanged: () => contexts.clear() });
        await protectedApi.register(brokerRoutes, { invitations, publicUrl: config.publicUrl });
        await protectedApi.register(logosRoutes);
        await protectedApi.register(reportsRoutes);
        await protectedApi.register(driversRoutes);
        await protectedApi.register(vehiculesRoutes, { publicUrl: config.publicUrl });
        await protectedApi.register(sinistersRoutes);
        await protectedApi.register(indicatorsRoutes);
        await protectedApi.register(dashboardRoutes);
        await protectedApi.register(renewalReportRoutes);
        await protectedApi.register(insuranceContractRoutes);
        await protectedApi.register(insuranceIntermediaryRoutes);
        await protectedApi.register(importRoutes, { publicUrl: config.publicUrl, commitJob: imports.commit });
        await protectedApi.register(documentsRoutes, { limits: config.documents });
        await protectedApi.register(onboardingRoutes, { onContextChanged: () => contexts.clear() });
        await protectedApi.register(alertsRoutes);
        await protectedApi.register(surveysRoutes, { publicUrl: config.publicUrl });
        await protectedApi.register(auditLogRoutes);
        await protectedApi.register(billingRoutes, { publicUrl: config.publicUrl });
      });
      await api.register(invitationsRoutes, { invitations, auth, publicUrl: config.publicUrl });
    },
    { prefix: '/api' },
  );

  if (options.serveWeb !== false) await registerWeb(app, config.webDist ?? DEFAULT_WEB_DIST);
  return app;
}

/**
 * Once the server is stopping (SIGTERM), a request still arriving on an open connection gets 503
 * with Retry-After, the French envelope and every answer's headers, and `Connection: close`:
 * the client retries on a new connection, to another process or to this one restarted (serve.ts).
 */
function refuseWhileClosing(app: FastifyInstance) {
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.addHook('onRequest', async (_request, reply) => {
    if (!closing) return;
    reply.header('connection', 'close');
    throw new ServiceUnavailableError(2, SHUTTING_DOWN_MESSAGE);
  });
}
