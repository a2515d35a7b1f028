import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after } from 'node:test';

export interface ReceivedCallback {
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

/**
 * An HTTP server standing in for a client's callback endpoint. It answers each POST with
 * the next status of `statuses` (the last one repeating) and records what it got.
 */
export async function callbackReceiver(statuses: number[] = [200]): Promise<{ url: string; received: ReceivedCallback[]; next(): Promise<ReceivedCallback> }> {
  const received: ReceivedCallback[] = [];
  const waiting: ((c: ReceivedCallback) => void)[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const entry = { headers: req.headers, body, at: Date.now() };
      const status = statuses[Math.min(received.length, statuses.length - 1)]!;
      received.push(entry);
      res.writeHead(status, { 'content-type': 'application/json' }).end('{}');
      waiting.shift()?.(entry);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const { port } = server.address() as AddressInfo;
  let consumed = 0;
  return {
    url: `http://127.0.0.1:${port}/hooks/retouch`,
    received,
    next: () =>
      new Promise((resolve) => {
        const index = consumed++;
        if (received[index]) resolve(received[index]);
        else waiting.push(resolve);
      }),
  };
}
