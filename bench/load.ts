/**
 * Load on the API for the benchmarks: one URL requested at a constant rate (open loop),
 * with the latencies it got.
 */
import http from 'node:http';
import { fixed } from './tools.js';

/** Requests per second: what the target names. */
export const RATE = 2000;

export interface LoadResult {
  sent: number;
  answered: number;
  seconds: number;
  latencies: number[];
}

/**
 * Requests `url` at a constant rate (open loop: a request leaves on schedule whether or
 * not earlier ones were answered) until stop() resolves; latency counts from the
 * scheduled time, so a stalled server is not hidden.
 */
export async function constantRate(url: string, headers: Record<string, string>, stop: Promise<unknown>): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const latencies: number[] = [];
  let sent = 0;
  let stopped = false;
  void stop.then(() => (stopped = true));
  const started = performance.now();
  const pending = new Set<Promise<void>>();
  while (!stopped) {
    const due = started + (sent * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    else if (wait > 0) await new Promise((r) => setImmediate(r));
    if (performance.now() < due) continue;
    sent++;
    const request = new Promise<void>((resolve) => {
      const req = http.get(url, { agent, headers }, (res) => {
        res.resume();
        res.on('end', () => {
          if (res.statusCode === 200) latencies.push(performance.now() - due);
          resolve();
        });
      });
      req.on('error', () => resolve());
    });
    pending.add(request);
    void request.then(() => pending.delete(request));
  }
  await Promise.all(pending);
  agent.destroy();
  return { sent, answered: latencies.length, seconds: (performance.now() - started) / 1000, latencies };
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
}

export const describeLoad = (r: LoadResult) =>
  `${fixed(r.answered / r.seconds, 0)} req/s answered of ${RATE}; p50 ${fixed(percentile(r.latencies, 50), 1)} / p99 ${fixed(percentile(r.latencies, 99), 1)} / max ${fixed(percentile(r.latencies, 100), 1)} ms`;
