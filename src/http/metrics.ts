import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry });

const httpDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'HTTP request duration by route pattern, method and status',
  labelNames: ['route', 'method', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [metricsRegistry],
});

/** Jobs in the shared queue by state: the backlog an operator scales workers on. */
export const jobsGauge = new Gauge({
  name: 'retouch_jobs',
  help: 'Jobs in the queue by state (queued, running, done, failed)',
  labelNames: ['state'] as const,
  registers: [metricsRegistry],
});

export function registerMetrics(app: FastifyInstance): void {
  app.addHook('onResponse', async (request, reply) => {
    // The route pattern, not the URL: uuids and file names would explode the label set.
    const route = request.routeOptions.url ?? 'unmatched';
    httpDuration.observe({ route, method: request.method, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
  });
}
