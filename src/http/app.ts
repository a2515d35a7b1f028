import crypto from 'node:crypto';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import ajvFormats from 'ajv-formats';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Services } from '../services.js';
import { registerErrorHandling } from './errors.js';
import { registerJsonParsing } from './json-body.js';
import { registerMetrics } from './metrics.js';
import { i2iProjectRoutes } from './routes/i2i-projects.js';
import { i2iUploadRoutes } from './routes/i2i-uploads.js';
import { opsRoutes } from './routes/ops.js';
import { storageRoutes } from './routes/storage.js';
import { authenticate } from './auth.js';

export const API_VERSION = '0.1.0';

/** Presigned signatures are credentials: they never reach a log line. */
export function redactUrl(url: string): string {
  return url.replace(/([?&]signature=)[^&]*/gi, '$1[redacted]');
}

export type App = FastifyInstance;

export async function buildApp(services: Services, options: { logger?: boolean } = {}): Promise<App> {
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : {
            level: services.config.logLevel,
            serializers: {
              // Only these fields, so headers (x-api-key) are never logged.
              req: (req) => ({ method: req.method, url: redactUrl(req.url), remoteAddress: req.ip }),
            },
          },
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w.-]{1,128}$/.test(given) ? given : crypto.randomUUID();
    },
    routerOptions: { ignoreTrailingSlash: true },
    bodyLimit: 10 * 1024 * 1024,
    ajv: {
      customOptions: { allErrors: true, verbose: true, coerceTypes: 'array', removeAdditional: true, useDefaults: true },
      plugins: [ajvFormats.default as never],
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  registerErrorHandling(app);
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
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });

  await app.register(opsRoutes, { services });
  await app.register(storageRoutes, { services });
  await app.register(
    async (v1) => {
      v1.addHook('onRequest', authenticate(services.accounts));
      await v1.register(i2iProjectRoutes, { services });
      await v1.register(i2iUploadRoutes, { services });
    },
    { prefix: '/v1' },
  );
  return app;
}
