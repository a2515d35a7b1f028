import crypto from 'node:crypto';
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { InvalidRequest } from './errors.js';
import { isPrivateAddress } from './private-addresses.js';

/**
 * Refuses callback URLs that are not HTTPS or that resolve to private, loopback or
 * link-local addresses (server-side request forgery), unless the operator allows them.
 */
export async function assertCallbackUrl(raw: string, allowPrivate: boolean): Promise<void> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new InvalidRequest(`callback_url "${raw}" is not an absolute URL.`);
  }
  const schemes = allowPrivate ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol)) throw new InvalidRequest('callback_url must be an HTTPS URL.');
  if (allowPrivate) return;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = net.isIP(host) ? [host] : (await dns.promises.lookup(host, { all: true })).map((a) => a.address);
  } catch {
    throw new InvalidRequest(`callback_url host "${host}" does not resolve.`);
  }
  if (addresses.some(isPrivateAddress)) {
    throw new InvalidRequest(`callback_url host "${host}" resolves to a private, loopback or link-local address, which callbacks may not reach.`);
  }
}

/** The signature header of a callback: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">` (docs/callbacks.md). */
export function signCallback(secret: string, body: string, timestamp = Math.floor(Date.now() / 1000)): string {
  const mac = crypto.createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return `t=${timestamp},v1=${mac}`;
}

export interface CallbackDelivery {
  url: string;
  body: string;
  secret: string;
  deliveryId: string;
  allowPrivate: boolean;
  timeoutMs?: number;
}

/**
 * POSTs one callback; resolves on a 2xx, throws otherwise. Names are resolved again at
 * connection time and private addresses refused there too, so DNS rebinding cannot bypass the check.
 */
export function deliverCallback(delivery: CallbackDelivery): Promise<void> {
  const url = new URL(delivery.url);
  const client = url.protocol === 'https:' ? https : http;
  const lookup: net.LookupFunction = (hostname, options, callback) =>
    dns.lookup(hostname, options, (err, address, family) => {
      if (err) return callback(err, address, family);
      const addresses = Array.isArray(address) ? address.map((a) => a.address) : [address];
      if (!delivery.allowPrivate && addresses.some(isPrivateAddress)) {
        return callback(new Error(`callback host ${hostname} resolves to a private address`), address, family);
      }
      callback(null, address, family);
    });
  return new Promise((resolve, reject) => {
    const request = client.request(
      url,
      {
        method: 'POST',
        lookup,
        timeout: delivery.timeoutMs ?? 10_000,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(delivery.body),
          'user-agent': 'retouch-callbacks/0.1',
          'x-retouch-signature': signCallback(delivery.secret, delivery.body),
          'x-retouch-delivery': delivery.deliveryId,
        },
      },
      (response) => {
        response.resume();
        response.on('end', () => {
          const status = response.statusCode ?? 0;
          if (status >= 200 && status < 300) resolve();
          else reject(new Error(`callback answered HTTP ${status}`));
        });
      },
    );
    request.on('timeout', () => request.destroy(new Error('callback timed out')));
    request.on('error', reject);
    request.end(delivery.body);
  });
}
