import crypto from 'node:crypto';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { LogController, type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { DestinationStream } from 'pino';
import type { Services } from '../services.js';
import { errorBody, registerErrorHandling } from './errors.js';
import { registerJsonParsing } from './json-body.js';
import { registerMetrics } from './metrics.js';
import { registerProjectAccess } from './project-access.js';
import { registerValidation } from './validation.js';
import { copilotRoutes } from './routes/copilot.js';
import { i2iEditingRoutes } from './routes/i2i-editing.js';
import { i2iProjectRoutes } from './routes/i2i-projects.js';
import { i2iUploadRoutes } from './routes/i2i-uploads.js';
import { opsRoutes } from './routes/ops.js';
import { profileRoutes } from './routes/profiles.js';
import { projectEditingRoutes } from './routes/project-editing.js';
import { projectRoutes } from './routes/projects.js';
import { storageRoutes } from './routes/storage.js';
import { authenticate } from './auth.js';
import { webAppRoutes } from './web-app.js';

/**
 * A parameter with a default may be left out: the validator fills it in. The schemas declare
 * such parameters without Optional so that handlers read them as always set, which
 * @fastify/swagger would otherwise publish as required.
 */
function optionalDefaults<D extends { paths?: object }>(document: D): D {
  for (const item of Object.values(document.paths ?? {}) as object[]) {
    for (const operation of Object.values(item) as { parameters?: { required?: boolean; schema?: { default?: unknown } }[] }[]) {
      for (const parameter of operation.parameters ?? []) {
        if (parameter.schema?.default !== undefined) parameter.required = false;
      }
    }
  }
  return document;
}

export const API_VERSION = '0.1.0';

/** Presigned signatures are credentials: they never reach a log line. */
export function redactUrl(url: string): string {
  return url.replace(/([?&]signature=)[^&]*/gi, '$1[redacted]');
}

export type App = FastifyInstance;

const MAX_PARAM_LENGTH = 4096;

/** Errors Fastify meets before routing (a malformed percent-encoding, an overlong parameter), in the standard envelope. */
function answerFrameworkError(err: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const message =
    err.code === 'FST_ERR_BAD_URL'
      ? 'Bad Request: the URL is not validly percent-encoded UTF-8.'
      : err.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? `URI Too Long: a path parameter is longer than ${MAX_PARAM_LENGTH} characters.`
        : `Bad Request: ${err.message}`;
  void reply.code(err.statusCode ?? 400).send(errorBody(message));
}

export interface AppOptions {
  /** Where log lines go; standard output when not given. */
  logStream?: DestinationStream;
}

export async function buildApp(services: Services, options: AppOptions = {}): Promise<App> {
  const app = Fastify({
    logger: {
      level: services.config.logLevel,
      serializers: {
        // Only these fields, so headers (x-api-key) are never logged.
        req: (req) => ({ method: req.method, url: redactUrl(req.url), remoteAddress: req.ip }),
      },
      ...(options.logStream ? { stream: options.logStream } : {}),
    },
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w.-]{1,128}$/.test(given) ? given : crypto.randomUUID();
    },
    // Path parameters carry file and project names: room for 255 characters percent-encoded.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
    bodyLimit: 10 * 1024 * 1024,
    // A malformed percent-encoding or an overlong parameter, answered before routing.
    frameworkErrors: answerFrameworkError,
    // One line per request, written when it is answered (below), rather than Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    // Malformed HTTP never reaches a route; answer it in the standard envelope too.
    clientErrorHandler: (err, socket) => {
      if (!socket.writable) return socket.destroy(err);
      const body = JSON.stringify(errorBody('Bad Request: malformed HTTP request'));
      socket.end(`HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  // Logging each request twice (received, answered) took 6 % of the API's time at 2000 requests a second.
  app.addHook('onResponse', async (request, reply) => {
    request.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  });

  registerErrorHandling(app);
  registerValidation(app);
  registerJsonParsing(app);
  registerMetrics(app);

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'retouch',
        version: API_VERSION,
        description: 'Self-hostable AI photo editing. Every /v1 route needs the x-api-key header.',
      },
      components: { securitySchemes: { APIKeyHeader: { type: 'apiKey', in: 'header', name: 'x-api-key' } } },
      security: [{ APIKeyHeader: [] }],
    },
    transformObject: (document) => ('openapiObject' in document ? optionalDefaults(document.openapiObject) : document.swaggerObject),
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });

  await app.register(opsRoutes, { services });
  // The embedded store serves its own links; with S3 they point at the bucket and there is no /storage.
  if (services.embeddedStorage) await app.register(storageRoutes, { ...services.embeddedStorage, uploads: services.uploads });
  await app.register(
    async (v1) => {
      v1.addHook('onRequest', authenticate(services.accounts));
      registerProjectAccess(v1, services.projects);
      await v1.register(i2iProjectRoutes, { services });
      await v1.register(i2iUploadRoutes, { services });
      await v1.register(i2iEditingRoutes, { services });
      await v1.register(profileRoutes, { services });
      await v1.register(projectRoutes, { services });
      await v1.register(projectEditingRoutes, { services });
      await v1.register(copilotRoutes, { services });
    },
    { prefix: '/v1' },
  );
  if (services.config.webApp) await app.register(webAppRoutes);
  return app;
}
