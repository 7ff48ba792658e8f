import { randomUUID } from 'node:crypto';
import helmet from '@fastify/helmet';
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyServerOptions,
  type onRouteHookHandler,
} from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ErrorCode } from '@courselens/contracts';
import { fastifyTrustProxy, type AppConfig } from './config';
import type { DatabaseConnection } from './db/client';
import { actionRoutes } from './modules/actions/actions.routes';
import { createActionsRuntime } from './modules/actions/runtime';
import { activityRoutes } from './modules/activity/activity.routes';
import { analyticsRoutes } from './modules/analytics/analytics.routes';
import { aiSummaryRoutes } from './modules/ai-summaries/ai-summaries.routes';
import { courseRoutes } from './modules/courses/courses.routes';
import { customReportRoutes } from './modules/custom-reports/custom-reports.routes';
import { pipelineGeneratorRoutes } from './modules/pipeline-generator/pipeline-generator.routes';
import { dashboardRoutes } from './modules/dashboard/dashboard.routes';
import { ingestionRoutes } from './modules/ingestion/ingestion.routes';
import { learnerRoutes } from './modules/learners/learners.routes';
import { questionRoutes } from './modules/questions/questions.routes';
import { variableRoutes } from './modules/variables/variables.routes';
import { variableReportRoutes } from './modules/variable-reports/variable-reports.routes';
import { questionReportRoutes } from './modules/question-reports/question-reports.routes';
import { sharedViewRoutes } from './modules/shared-views/shared-views.routes';
import { apiKeyRoutes } from './modules/api-keys/api-keys.routes';
import { createAuth } from './modules/auth/auth';
import { authRoutes } from './modules/auth/auth.routes';
import { resolveAuthSecret } from './modules/auth/auth-secret';
import { healthRoutes } from './modules/health/health.routes';
import { meRoutes } from './modules/me/me.routes';
import { enableResultCache } from './modules/metrics/result-cache';
import { enableLearnerParts } from './db/learner-parts';
import { setStatementSlots } from './db/statement-slots';
import { organizationRoutes } from './modules/organizations/organizations.routes';
import { pipelineQueue } from './modules/pipelines/pipelines.jobs';
import { pipelineRoutes } from './modules/pipelines/pipelines.routes';
import { chatbotRoutes } from './modules/chatbots/chatbots.routes';
import { profileRoutes } from './modules/profile/profile.routes';
import { createInvitationMailer } from './modules/team/invitation-mailer';
import { teamRoutes } from './modules/team/team.routes';
import { createLlmEngine } from './lib/llm';
import type { JobRunner } from './jobs/job-runner';
import type { BillingProvider } from './modules/billing/billing-provider';
import { billingRoutes } from './modules/billing/billing.routes';
import { createBillingProvider } from './modules/billing/providers';
import { createAppJobRunner } from './jobs/registry';
import { jobRoutes } from './modules/jobs/jobs.routes';
import { registerDocs } from './plugins/docs';
import { registerErrorHandler } from './plugins/error-handler';
import { registerRequestTextCheck } from './plugins/request-text';
import { registerTenant } from './plugins/tenant';
import { registerTrackerScript } from './plugins/tracker-script';
import { registerWebApp } from './plugins/web-app';
import { lrsActivityRoutes } from './modules/xapi/lrs-activity';
import { xapiRoutes } from './modules/xapi/xapi.routes';

export type BuildAppOptions = {
  config: AppConfig;
  database: DatabaseConnection;
  /** A pino logger (main.ts) or pino options; tests pass `false`. */
  logger?: FastifyServerOptions['logger'];
  loggerInstance?: FastifyServerOptions['loggerInstance'];
  /** Sees every route as it is registered (the tenant-isolation test enumerates them with it). */
  onRoute?: onRouteHookHandler;
  /**
   * The job queue, started by the caller (main.ts, with workers); routes
   * publish domain events to it. Absent, the app starts a queue without
   * workers itself and stops it on close.
   */
  jobs?: JobRunner;
  /** Who takes payment; by default from the configuration (Stripe or the local provider). */
  billingProvider?: BillingProvider;
  /** Chat limits (tests that send many messages raise them). */
  chat?: { limits?: { perMinute: number; perHour: number } };
};

const REQUEST_ID_PATTERN = /^[\w.:-]{1,128}$/;

function frameworkErrorAnswer(code: string): [number, { error: string; code: ErrorCode }] {
  if (code === 'FST_ERR_BAD_URL')
    return [
      400,
      {
        error: 'The URL is not valid: a percent-encoded part of its path is not UTF-8 text',
        code: 'BAD_REQUEST',
      },
    ];
  if (code === 'FST_ERR_MAX_PARAM_LENGTH')
    return [
      414,
      { error: 'The URL is not valid: a part of its path is over 100 characters long', code: 'BAD_REQUEST' },
    ];
  return [500, { error: 'Internal server error', code: 'INTERNAL_ERROR' }];
}

/**
 * Builds the whole HTTP application without listening, so the same instance
 * serves production (main.ts) and the tests (app.inject).
 */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config, database } = options;
  const app = Fastify({
    ...(options.loggerInstance
      ? { loggerInstance: options.loggerInstance }
      : { logger: options.logger ?? false }),
    trustProxy: fastifyTrustProxy(config.trustProxy),
    // Honour a caller's request id when it is sane, so a trace spans the
    // load balancer and us; otherwise mint one.
    requestIdHeader: false,
    genReqId: (request) => {
      const incoming = request.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID_PATTERN.test(incoming) ? incoming : randomUUID();
    },
    bodyLimit: 1_048_576,
    // A path the router cannot take (a percent-encoding that is not UTF-8,
    // e.g. a lone surrogate sent as %ED%A0%80; a segment over 100 characters)
    // fails before routing and before the hooks and the error handler:
    // answer it in the API's one error shape all the same.
    frameworkErrors: (error, request, genericReply) => {
      const [status, body] = frameworkErrorAnswer(error.code);
      // The option is typed for any route's reply schema; this answer has none.
      const reply = genericReply as unknown as FastifyReply;
      void reply
        .header('x-request-id', request.id)
        .header('cache-control', 'no-store')
        .status(status)
        .send(body);
    },
    routerOptions: { ignoreTrailingSlash: true },
  }).withTypeProvider<ZodTypeProvider>();

  if (options.onRoute) app.addHook('onRoute', options.onRoute);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  // An empty body with a JSON content type is "no body" (e.g. POST
  // /api/api-keys/:id/revoke, which the spec calls with an empty body);
  // everything else goes through Fastify's safe JSON parser.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '') {
      done(null, undefined);
      return;
    }
    void parseJson(request, typeof body === 'string' ? body : body.toString('utf8'), done);
  });

  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        // CSP_CONNECT_SRC: e.g. the PostHog host a build's VITE_POSTHOG_HOST points at.
        connectSrc: ["'self'", ...config.cspConnectSrc],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        frameAncestors: ["'self'"],
        formAction: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    // HSTS only when the product's public address is https: browsers then
    // refuse plain HTTP to this host for a year (even if the TLS terminator
    // in front forgets the header). In development (http://localhost) it is
    // off, or browsers would pin localhost to https.
    strictTransportSecurity: config.publicUrl?.startsWith('https://')
      ? { maxAge: 31_536_000, includeSubDomains: true }
      : false,
  });

  // No /api answer may be stored by a browser or a proxy: signed-in answers
  // hold one organization's data (a shared computer's back button or disk
  // cache must not show it after sign-out). Public reports and shared views
  // get the same: their link can be revoked or rotated at any moment, and a
  // cached copy would outlive that. A route that sets its own Cache-Control
  // keeps it.
  app.addHook('onSend', async (request, reply, payload) => {
    const path = request.url.split('?')[0] ?? '/';
    if ((path === '/api' || path.startsWith('/api/')) && !reply.hasHeader('cache-control')) {
      reply.header('cache-control', 'no-store');
    }
    return payload;
  });

  // Report results kept until their organization's data changes (see metrics/result-cache.ts).
  enableResultCache(database.db, { maxMb: config.reportCacheMb, recent: config.reportRecent });
  // Statements in shares of the learners only where several connections run them side by side.
  enableLearnerParts(database.db, database.kind === 'postgres' ? config.analyticsParts : 1);
  setStatementSlots(database.db, database.kind === 'postgres' ? Number.POSITIVE_INFINITY : 1);
  // Caller and organization for every /api route, before any route exists.
  registerTenant(app, database.db);
  // Then every string of the request must be storable text (NUL, lone surrogates): 400 otherwise.
  registerRequestTextCheck(app);
  // Swagger collects routes as they are added, so it goes before them too.
  await registerDocs(app);
  const auth = createAuth(database.db, {
    secret: await resolveAuthSecret(database, config.authSecret),
    baseURL: config.publicUrl ?? `http://localhost:${config.port}`,
    logger: app.log.child({ module: 'better-auth' }),
  });

  // One engine for every AI feature; null means each uses its built-in engine.
  const llm = createLlmEngine(config.llm);
  await app.register(healthRoutes, { database });
  await app.register(authRoutes, { db: database.db, auth, signupLimitPerHour: config.signupLimitPerHour });
  await app.register(meRoutes, { db: database.db });
  await app.register(organizationRoutes, { db: database.db });
  await app.register(apiKeyRoutes, { db: database.db });
  await app.register(teamRoutes, {
    db: database.db,
    auth,
    publicUrl: config.publicUrl,
    mailer: createInvitationMailer(config.smtp, (err) => app.log.error({ err }, 'invitation e-mail failed')),
  });
  await app.register(profileRoutes, { db: database.db, auth });
  let jobs = options.jobs;
  if (!jobs) {
    const ownJobs = createAppJobRunner(database, { workers: false });
    await ownJobs.start();
    app.addHook('onClose', async () => ownJobs.stop());
    jobs = ownJobs;
  }
  await app.register(ingestionRoutes, { db: database.db, publish: jobs.publish });
  await app.register(lrsActivityRoutes, { db: database.db });
  await app.register(xapiRoutes, {
    db: database.db,
    publish: jobs.publish,
    publicUrl: config.publicUrl ?? null,
  });
  await app.register(jobRoutes, { jobs });
  await app.register(courseRoutes, { db: database.db, publish: jobs.publish });
  await app.register(learnerRoutes, { db: database.db });
  await app.register(variableRoutes, { db: database.db });
  await app.register(questionRoutes, { db: database.db });
  await app.register(dashboardRoutes, { db: database.db });
  await app.register(activityRoutes, { db: database.db });
  await app.register(analyticsRoutes, { db: database.db });
  await app.register(customReportRoutes, { db: database.db, llm });
  await app.register(pipelineGeneratorRoutes, { db: database.db, llm });
  await app.register(aiSummaryRoutes, { db: database.db, llm });
  await app.register(variableReportRoutes, { db: database.db });
  await app.register(questionReportRoutes, { db: database.db });
  await app.register(sharedViewRoutes, { db: database.db });
  await app.register(actionRoutes, {
    db: database.db,
    runtime: createActionsRuntime({
      authSecret: await resolveAuthSecret(database, config.authSecret),
      config,
      publish: jobs.publish,
    }),
  });
  await app.register(chatbotRoutes, {
    db: database.db,
    publish: jobs.publish,
    llm,
    ...(options.chat ? { chat: options.chat } : {}),
  });
  await app.register(pipelineRoutes, {
    db: database.db,
    queue: pipelineQueue(jobs),
    runtime: createActionsRuntime({
      authSecret: await resolveAuthSecret(database, config.authSecret),
      config,
      publish: jobs.publish,
    }),
  });
  await app.register(billingRoutes, {
    db: database.db,
    provider: options.billingProvider ?? createBillingProvider(config),
    publicUrl: config.publicUrl,
  });
  await registerTrackerScript(app);

  const isServingWebApp = await registerWebApp(app, config.webDistDir);

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const isApi =
      path === '/api' || path.startsWith('/api/') || path === '/xapi' || path.startsWith('/xapi/');
    const isPageRequest = request.method === 'GET' || request.method === 'HEAD';
    if (!isApi && isPageRequest && isServingWebApp) {
      // History fallback: the single-page app owns every other path,
      // including its own 404 page.
      return reply.header('cache-control', 'no-cache').type('text/html').sendFile('index.html');
    }
    return reply.status(404).send({
      error: `Route ${request.method} ${path} not found`,
      code: 'NOT_FOUND',
    });
  });

  return app;
}
