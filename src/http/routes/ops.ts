import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Services } from '../../services.js';
import { jobsGauge, metricsRegistry } from '../metrics.js';

/** For operators: liveness with a database round trip, Prometheus metrics, the OpenAPI document. */
export const opsRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  app.get('/healthz', { schema: { hide: true } }, async (_request, reply) => {
    try {
      await services.db.ping();
      return { status: 'ok', database: services.db.engine };
    } catch (err) {
      app.log.error({ err }, 'health check failed');
      return reply.code(503).send({ status: 'unavailable', database: services.db.engine });
    }
  });

  app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
    const counts = await services.queue.counts();
    for (const state of ['queued', 'running', 'done', 'failed']) jobsGauge.set({ state }, counts[state] ?? 0);
    reply.header('content-type', metricsRegistry.contentType);
    return metricsRegistry.metrics();
  });

  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
};
