import http from 'node:http';

export interface HttpResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  text: string;
  /** The body parsed as JSON; throws when it is not JSON. */
  json: any;
}

export interface RequestOptions {
  headers?: Record<string, string>;
  body?: string | Buffer | null;
}

/**
 * A bare HTTP request on node:http: unlike fetch it sends headers exactly as given,
 * including an empty Content-Type, which official clients do.
 */
export function request(method: string, url: string, options: RequestOptions = {}): Promise<HttpResponse> {
  return new Promise((resolve, reject) => {
    const headers = { ...options.headers };
    // node sends DELETE bodies without a length unless told; real clients always send one.
    if (options.body !== undefined && options.body !== null) headers['content-length'] = String(Buffer.byteLength(options.body));
    const req = http.request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        const text = body.toString('utf8');
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body,
          text,
          get json() {
            return JSON.parse(text);
          },
        });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    if (options.body !== undefined && options.body !== null) req.end(options.body);
    else req.end();
  });
}

/** A client bound to a base URL and an API key, speaking JSON like the official SDKs. */
export class ApiClient {
  constructor(
    readonly baseUrl: string,
    readonly apiKey: string | null,
  ) {}

  withKey(apiKey: string | null): ApiClient {
    return new ApiClient(this.baseUrl, apiKey);
  }

  send(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<HttpResponse> {
    const all: Record<string, string> = { ...headers };
    if (this.apiKey !== null) all['x-api-key'] = this.apiKey;
    let payload: string | undefined;
    if (body !== undefined) {
      payload = JSON.stringify(body);
      if (!('content-type' in all)) all['content-type'] = 'application/json';
    }
    return request(method, `${this.baseUrl}${path}`, { headers: all, body: payload ?? null });
  }

  get(path: string) {
    return this.send('GET', path);
  }

  post(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.send('POST', path, body, headers);
  }

  delete(path: string, body?: unknown) {
    return this.send('DELETE', path, body);
  }
}
