/**
 * Load on the API for the benchmarks: one URL requested at a constant rate (open loop),
 * with the latencies it got.
 */
import net from 'node:net';
import { fixed } from './tools.js';

/** Requests per second: what the issue's target names. */
export const RATE = 2000;

export interface LoadResult {
  sent: number;
  answered: number;
  seconds: number;
  latencies: number[];
}

/** How often the generator wakes to send what is due: coarser would bunch requests, finer would busy the machine. */
const TICK_MS = 1;
/** Keep-alive connections the requests are spread over, each pipelining its own (answers come back in order). */
const CONNECTIONS = 16;

/**
 * One keep-alive connection sending the same GET over and over (HTTP/1.1 pipelining):
 * answers come back in the order asked, so each is matched with the oldest send time
 * still waiting. Only what a latency needs is parsed: the status and Content-Length.
 */
class Connection {
  private readonly socket: net.Socket;
  private readonly waiting: number[] = [];
  private buffered: Buffer = Buffer.alloc(0);
  private closed = false;

  constructor(
    url: URL,
    private readonly request: Buffer,
    private readonly answered: (due: number, ok: boolean) => void,
  ) {
    this.socket = net.connect(Number(url.port), url.hostname);
    this.socket.setNoDelay(true);
    this.socket.on('data', (chunk: Buffer) => this.read(chunk));
    const fail = () => {
      this.closed = true;
      for (const due of this.waiting.splice(0)) this.answered(due, false);
    };
    this.socket.on('error', fail);
    this.socket.on('close', fail);
  }

  get outstanding(): number {
    return this.waiting.length;
  }

  send(due: number): void {
    if (this.closed) {
      this.answered(due, false);
      return;
    }
    this.waiting.push(due);
    this.socket.write(this.request);
  }

  private read(chunk: Buffer): void {
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    for (;;) {
      const end = this.buffered.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = this.buffered.toString('latin1', 0, end);
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
      if (this.buffered.length < end + 4 + length) return;
      this.buffered = this.buffered.subarray(end + 4 + length);
      this.answered(this.waiting.shift()!, head.startsWith('HTTP/1.1 200'));
    }
  }

  close(): void {
    this.socket.destroy();
  }
}

/**
 * Requests `url` at a constant rate (open loop: a request leaves on schedule whether or
 * not earlier ones were answered) until stop() resolves; latency counts from the
 * scheduled time, so a stalled server is not hidden. The generator must cost the machine
 * little beside the server it measures: it sleeps between ticks of a millisecond and
 * sends every request that fell due at each (spinning until each one's time took most of
 * a core), over raw sockets (Node's HTTP client cost as much CPU per request as the server).
 */
export async function constantRate(url: string, headers: Record<string, string>, stop: Promise<unknown>): Promise<LoadResult> {
  const target = new URL(url);
  const request = Buffer.from(
    `GET ${target.pathname}${target.search} HTTP/1.1\r\nHost: ${target.host}\r\n${Object.entries(headers)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('')}\r\n`,
  );
  const latencies: number[] = [];
  let answeredAll: () => void = () => {};
  let open = 0;
  const answered = (due: number, ok: boolean) => {
    if (ok) latencies.push(performance.now() - due);
    if (--open === 0 && stopped) answeredAll();
  };
  const connections = Array.from({ length: CONNECTIONS }, () => new Connection(target, request, answered));
  let sent = 0;
  let stopped = false;
  void stop.then(() => (stopped = true));
  const started = performance.now();
  while (!stopped) {
    await new Promise((r) => setTimeout(r, TICK_MS));
    const now = performance.now();
    for (let due = started + (sent * 1000) / RATE; due <= now; due = started + (sent * 1000) / RATE) {
      sent++;
      open++;
      // The connection with the fewest answers outstanding, so a slow answer delays few others.
      connections.reduce((a, b) => (b.outstanding < a.outstanding ? b : a)).send(due);
    }
  }
  if (open > 0) await new Promise<void>((r) => (answeredAll = r));
  for (const c of connections) c.close();
  return { sent, answered: latencies.length, seconds: (performance.now() - started) / 1000, latencies };
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
}

export const describeLoad = (r: LoadResult) =>
  `${fixed(r.answered / r.seconds, 0)} req/s answered of ${RATE}; p50 ${fixed(percentile(r.latencies, 50), 1)} / p99 ${fixed(percentile(r.latencies, 99), 1)} / max ${fixed(percentile(r.latencies, 100), 1)} ms`;
