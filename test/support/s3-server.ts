import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An S3-protocol server on a loopback port for the tests and the upload bench: path-style
 * buckets, every request authenticated with AWS Signature V4 (an Authorization header or
 * presigned query parameters, expiry and payload hash included; unsigned requests are
 * refused), Content-MD5 verified, and the operations retouch and standard clients (the AWS
 * SDK, s3cmd, curl) use: objects (PUT, GET with Range and response-* overrides, HEAD,
 * DELETE, copy), ListObjectsV2 (and v1), multipart (create, UploadPart, ListParts, complete
 * with S3's part rules, abort), buckets (create, head, location, list).
 *
 * Why our own: no S3 server installable from npm or Debian 12 checks all of this (see
 * docs/uploads.md, "Testing against S3"). Objects are held in memory: test-sized data only.
 */

export interface S3TestServer {
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Makes an empty bucket. */
  createBucket(name: string): void;
  /** The environment that points retouch at a bucket of this server. */
  env(bucket: string): Record<string, string>;
  /**
   * Holds every GET of objects whose key ends with `suffix` until the returned function is
   * called, then answers them (those whose client is still there) and lets later ones through:
   * a test keeps a photo's development waiting on its source.
   */
  holdReads(suffix: string): () => void;
  close(): Promise<void>;
}

interface StoredObject {
  body: Buffer;
  etag: string;
  contentType: string | undefined;
  lastModified: Date;
}

interface Upload {
  bucket: string;
  key: string;
  parts: Map<number, StoredObject>;
}

const MIN_PART_BYTES = 5 * 1024 * 1024;
/** Sub-resources of S3 this server does not implement: refused rather than mistaken for the plain object or bucket. */
const UNSUPPORTED = [
  'acl',
  'policy',
  'cors',
  'tagging',
  'versioning',
  'versions',
  'lifecycle',
  'website',
  'logging',
  'notification',
  'replication',
  'encryption',
  'object-lock',
  'retention',
  'legal-hold',
  'restore',
  'select',
  'delete',
  'attributes',
];
const MAX_SKEW_MS = 15 * 60 * 1000;

class S3Error extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** RFC 3986 encoding as SigV4 canonicalises it: everything but unreserved characters. */
const rfc3986 = (value: string) => encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const sha256 = (data: string | Buffer) => crypto.createHash('sha256').update(data).digest('hex');
const hmac = (key: Buffer | string, data: string) => crypto.createHmac('sha256', key).update(data).digest();
const md5 = (data: Buffer) => crypto.createHash('md5').update(data).digest();
const xmlEscape = (value: string) => value.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** An XML document as S3 answers: results in S3's namespace, error documents without one. */
function xml(root: string, body: string, namespace = true): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<${root}${namespace ? ' xmlns="http://s3.amazonaws.com/doc/2006-03-01/"' : ''}>${body}</${root}>`;
}

function element(name: string, value: string | number | boolean): string {
  return `<${name}>${xmlEscape(String(value))}</${name}>`;
}

/** The query of a request as SigV4 and S3 read it: decoded names and values, '' for a name without '='. */
function parseQuery(search: string): [string, string][] {
  if (search === '') return [];
  return search.split('&').map((pair) => {
    const at = pair.indexOf('=');
    const decode = (s: string) => decodeURIComponent(s.replace(/\+/g, '%20'));
    return at < 0 ? [decode(pair), ''] : [decode(pair.slice(0, at)), decode(pair.slice(at + 1))];
  });
}

function amzDateMs(value: string): number {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  if (!m) throw new S3Error(403, 'AccessDenied', `X-Amz-Date must be in the ISO8601 basic format, got "${value}"`);
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]));
}

interface Signed {
  accessKeyId: string;
  scope: string[];
  amzDate: string;
  signedHeaders: string[];
  signature: string;
  payloadHash: string;
}

/** The signature claims of a request, from its Authorization header or its presigned query. */
function signatureOf(req: http.IncomingMessage, query: Map<string, string>): Signed {
  const auth = req.headers.authorization;
  if (auth !== undefined) {
    const m = /^AWS4-HMAC-SHA256 Credential=([^,]+),\s*SignedHeaders=([^,]+),\s*Signature=([0-9a-f]{64})$/.exec(auth.trim());
    if (!m) throw new S3Error(400, 'AuthorizationHeaderMalformed', 'The authorization header is malformed or not Signature Version 4.');
    const amzDate = String(req.headers['x-amz-date'] ?? '');
    if (Math.abs(Date.now() - amzDateMs(amzDate)) > MAX_SKEW_MS) throw new S3Error(403, 'RequestTimeTooSkewed', 'The difference between the request time and the server time is too large.');
    const payloadHash = req.headers['x-amz-content-sha256'];
    if (typeof payloadHash !== 'string') throw new S3Error(400, 'InvalidRequest', 'Missing required header for this request: x-amz-content-sha256');
    const [accessKeyId, ...scope] = m[1]!.split('/');
    return { accessKeyId: accessKeyId!, scope, amzDate, signedHeaders: m[2]!.split(';'), signature: m[3]!, payloadHash };
  }
  if (query.get('X-Amz-Algorithm') === 'AWS4-HMAC-SHA256') {
    const need = ['X-Amz-Credential', 'X-Amz-Date', 'X-Amz-Expires', 'X-Amz-SignedHeaders', 'X-Amz-Signature'];
    if (need.some((name) => !query.has(name))) throw new S3Error(400, 'AuthorizationQueryParametersError', `Query-string authentication requires ${need.join(', ')}.`);
    const amzDate = query.get('X-Amz-Date')!;
    const expires = Number(query.get('X-Amz-Expires'));
    if (!Number.isInteger(expires) || expires < 1 || expires > 604800) {
      throw new S3Error(400, 'AuthorizationQueryParametersError', 'X-Amz-Expires must be between 1 and 604800 seconds.');
    }
    if (Date.now() > amzDateMs(amzDate) + expires * 1000) throw new S3Error(403, 'AccessDenied', 'Request has expired');
    const [accessKeyId, ...scope] = query.get('X-Amz-Credential')!.split('/');
    return {
      accessKeyId: accessKeyId!,
      scope,
      amzDate,
      signedHeaders: query.get('X-Amz-SignedHeaders')!.split(';'),
      signature: query.get('X-Amz-Signature')!,
      payloadHash: query.get('X-Amz-Content-Sha256') ?? 'UNSIGNED-PAYLOAD',
    };
  }
  throw new S3Error(403, 'AccessDenied', 'Anonymous access is not allowed: sign the request with AWS Signature Version 4.');
}

export async function startS3Server(): Promise<S3TestServer> {
  const region = 'us-east-1';
  const accessKeyId = 'RETOUCHTESTKEY';
  const secretAccessKey = crypto.randomBytes(20).toString('base64');
  const buckets = new Map<string, Map<string, StoredObject>>();
  const uploads = new Map<string, Upload>();

  /** Checks the request's Signature Version 4 against the secret; throws S3's error when it does not match. */
  function authenticate(req: http.IncomingMessage, path: string, pairs: [string, string][], body: Buffer): void {
    const query = new Map(pairs);
    const signed = signatureOf(req, query);
    if (signed.accessKeyId !== accessKeyId) throw new S3Error(403, 'InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.');
    const [date, scopeRegion, service, terminator] = signed.scope;
    if (scopeRegion !== region || service !== 's3' || terminator !== 'aws4_request' || date !== signed.amzDate.slice(0, 8)) {
      throw new S3Error(400, 'AuthorizationHeaderMalformed', `The credential scope ${signed.scope.join('/')} is not valid here; expecting region "${region}".`);
    }
    if (!signed.signedHeaders.includes('host')) throw new S3Error(400, 'AuthorizationHeaderMalformed', 'The host header must be signed.');
    if (/^[0-9a-f]{64}$/.test(signed.payloadHash)) {
      if (sha256(body) !== signed.payloadHash) throw new S3Error(400, 'XAmzContentSHA256Mismatch', "The provided 'x-amz-content-sha256' header does not match what was computed.");
    } else if (signed.payloadHash !== 'UNSIGNED-PAYLOAD') {
      throw new S3Error(501, 'NotImplemented', `Payload signing "${signed.payloadHash}" is not supported by this server.`);
    }
    const canonicalUri = path
      .split('/')
      .map((segment) => rfc3986(decodeURIComponent(segment)))
      .join('/');
    const canonicalQuery = pairs
      .filter(([name]) => name !== 'X-Amz-Signature')
      .map(([name, value]) => [rfc3986(name), rfc3986(value)] as const)
      .sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
      .map(([name, value]) => `${name}=${value}`)
      .join('&');
    const canonicalHeaders = signed.signedHeaders
      .map((name) => {
        const value = req.headers[name];
        if (value === undefined) throw new S3Error(403, 'SignatureDoesNotMatch', `The signed header "${name}" is missing from the request.`);
        return `${name}:${(Array.isArray(value) ? value.join(',') : value).trim().replace(/\s+/g, ' ')}\n`;
      })
      .join('');
    const canonicalRequest = [req.method, canonicalUri, canonicalQuery, canonicalHeaders, signed.signedHeaders.join(';'), signed.payloadHash].join('\n');
    const stringToSign = ['AWS4-HMAC-SHA256', signed.amzDate, signed.scope.join('/'), sha256(canonicalRequest)].join('\n');
    const key = hmac(hmac(hmac(hmac(`AWS4${secretAccessKey}`, date!), region), 's3'), 'aws4_request');
    const expected = hmac(key, stringToSign);
    const given = Buffer.from(signed.signature, 'hex');
    if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) {
      throw new S3Error(403, 'SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided.');
    }
  }

  /** Content-MD5, when sent, must be the base64 MD5 of exactly the bytes received. */
  function checkDigest(req: http.IncomingMessage, body: Buffer): void {
    const header = req.headers['content-md5'];
    if (header === undefined) return;
    const declared = Buffer.from(String(header), 'base64');
    if (declared.length !== 16 || declared.toString('base64') !== header) throw new S3Error(400, 'InvalidDigest', 'The Content-MD5 you specified is not valid.');
    if (!declared.equals(md5(body))) throw new S3Error(400, 'BadDigest', 'The Content-MD5 you specified did not match what we received.');
  }

  function bucketOf(name: string): Map<string, StoredObject> {
    const bucket = buckets.get(name);
    if (!bucket) throw new S3Error(404, 'NoSuchBucket', 'The specified bucket does not exist');
    return bucket;
  }

  function objectOf(bucket: string, key: string): StoredObject {
    const object = bucketOf(bucket).get(key);
    if (!object) throw new S3Error(404, 'NoSuchKey', 'The specified key does not exist.');
    return object;
  }

  function uploadOf(bucket: string, key: string, uploadId: string): Upload {
    const upload = uploads.get(uploadId);
    if (!upload || upload.bucket !== bucket || upload.key !== key) throw new S3Error(404, 'NoSuchUpload', 'The specified upload does not exist.');
    return upload;
  }

  const stored = (body: Buffer, contentType: string | undefined): StoredObject => ({
    body,
    etag: `"${md5(body).toString('hex')}"`,
    contentType: contentType || undefined,
    lastModified: new Date(),
  });

  function listObjects(res: http.ServerResponse, name: string, query: Map<string, string>): void {
    const bucket = bucketOf(name);
    const v2 = query.get('list-type') === '2';
    const prefix = query.get('prefix') ?? '';
    const delimiter = query.get('delimiter') ?? '';
    const maxKeys = Math.min(Number(query.get('max-keys') ?? 1000), 1000);
    const after = (v2 ? (query.get('continuation-token') ?? query.get('start-after')) : query.get('marker')) ?? '';
    const contents: string[] = [];
    const prefixes = new Set<string>();
    let last = '';
    let truncated = false;
    for (const key of [...bucket.keys()].filter((k) => k.startsWith(prefix) && k > after).sort()) {
      const cut = delimiter ? key.indexOf(delimiter, prefix.length) : -1;
      const common = cut >= 0 ? key.slice(0, cut + delimiter.length) : null;
      if (common !== null && prefixes.has(common)) continue;
      if (contents.length + prefixes.size >= maxKeys) {
        truncated = true;
        break;
      }
      last = key;
      if (common !== null) prefixes.add(common);
      else {
        const o = bucket.get(key)!;
        contents.push(`<Contents>${element('Key', key)}${element('LastModified', o.lastModified.toISOString())}${element('ETag', o.etag)}${element('Size', o.body.length)}${element('StorageClass', 'STANDARD')}</Contents>`);
      }
    }
    const paging = v2 ? `${element('KeyCount', contents.length + prefixes.size)}${truncated ? element('NextContinuationToken', last) : ''}` : `${element('Marker', after)}${truncated ? element('NextMarker', last) : ''}`;
    const common = [...prefixes].map((p) => `<CommonPrefixes>${element('Prefix', p)}</CommonPrefixes>`).join('');
    send(res, 200, xml('ListBucketResult', `${element('Name', name)}${element('Prefix', prefix)}${element('MaxKeys', maxKeys)}${element('IsTruncated', truncated)}${paging}${contents.join('')}${common}`));
  }

  function getObject(req: http.IncomingMessage, res: http.ServerResponse, object: StoredObject, query: Map<string, string>): void {
    const size = object.body.length;
    const headers: http.OutgoingHttpHeaders = {
      'content-type': query.get('response-content-type') ?? object.contentType ?? 'binary/octet-stream',
      etag: object.etag,
      'last-modified': object.lastModified.toUTCString(),
      'accept-ranges': 'bytes',
    };
    const disposition = query.get('response-content-disposition');
    if (disposition) headers['content-disposition'] = disposition;
    const range = /^bytes=(\d*)-(\d*)$/.exec(String(req.headers.range ?? ''));
    let start = 0;
    let end = size - 1;
    if (range && (range[1] !== '' || range[2] !== '')) {
      start = range[1] === '' ? Math.max(0, size - Number(range[2])) : Number(range[1]);
      end = range[1] === '' || range[2] === '' ? size - 1 : Math.min(Number(range[2]), size - 1);
      if (start > end || start >= size) throw new S3Error(416, 'InvalidRange', 'The requested range is not satisfiable');
      headers['content-range'] = `bytes ${start}-${end}/${size}`;
    }
    headers['content-length'] = end - start + 1;
    res.writeHead(range && headers['content-range'] ? 206 : 200, headers);
    res.end(req.method === 'HEAD' ? undefined : object.body.subarray(start, end + 1));
  }

  function completeMultipart(res: http.ServerResponse, bucket: string, key: string, uploadId: string, body: Buffer): void {
    const upload = uploadOf(bucket, key, uploadId);
    const listed = [...body.toString('utf8').matchAll(/<Part>([\s\S]*?)<\/Part>/g)].map(([, part]) => ({
      number: Number(/<PartNumber>(\d+)<\/PartNumber>/.exec(part!)?.[1]),
      etag: /<ETag>([^<]*)<\/ETag>/.exec(part!)?.[1]?.replace(/&quot;|&#34;/g, '"'),
    }));
    if (listed.length === 0) throw new S3Error(400, 'MalformedXML', 'The XML you provided was not well-formed or did not validate against our published schema.');
    const parts = listed.map((p, i) => {
      if (i > 0 && p.number <= listed[i - 1]!.number) throw new S3Error(400, 'InvalidPartOrder', 'The list of parts was not in ascending order.');
      const part = upload.parts.get(p.number);
      if (!part || part.etag !== p.etag) throw new S3Error(400, 'InvalidPart', `Part ${p.number} was not uploaded, or its ETag does not match.`);
      if (i < listed.length - 1 && part.body.length < MIN_PART_BYTES) throw new S3Error(400, 'EntityTooSmall', 'Your proposed upload is smaller than the minimum allowed size.');
      return part;
    });
    const object = stored(Buffer.concat(parts.map((p) => p.body)), undefined);
    object.etag = `"${md5(Buffer.concat(parts.map((p) => Buffer.from(p.etag.slice(1, -1), 'hex')))).toString('hex')}-${parts.length}"`;
    bucketOf(bucket).set(key, object);
    uploads.delete(uploadId);
    send(res, 200, xml('CompleteMultipartUploadResult', `${element('Bucket', bucket)}${element('Key', key)}${element('ETag', object.etag)}`));
  }

  function listParts(res: http.ServerResponse, bucket: string, key: string, uploadId: string, query: Map<string, string>): void {
    const upload = uploadOf(bucket, key, uploadId);
    const marker = Number(query.get('part-number-marker') ?? 0);
    const max = Math.min(Number(query.get('max-parts') ?? 1000), 1000);
    const numbers = [...upload.parts.keys()].filter((n) => n > marker).sort((a, b) => a - b);
    const page = numbers.slice(0, max);
    const truncated = numbers.length > page.length;
    const parts = page.map((n) => {
      const p = upload.parts.get(n)!;
      return `<Part>${element('PartNumber', n)}${element('LastModified', p.lastModified.toISOString())}${element('ETag', p.etag)}${element('Size', p.body.length)}</Part>`;
    });
    const paging = `${element('PartNumberMarker', marker)}${truncated ? element('NextPartNumberMarker', page[page.length - 1]!) : ''}${element('MaxParts', max)}${element('IsTruncated', truncated)}`;
    send(res, 200, xml('ListPartsResult', `${element('Bucket', bucket)}${element('Key', key)}${element('UploadId', uploadId)}${paging}${parts.join('')}`));
  }

  function send(res: http.ServerResponse, status: number, body: string | null, headers: http.OutgoingHttpHeaders = {}): void {
    res.writeHead(status, body === null ? headers : { 'content-type': 'application/xml', 'content-length': Buffer.byteLength(body), ...headers });
    res.end(body ?? undefined);
  }

  function handle(req: http.IncomingMessage, res: http.ServerResponse, body: Buffer): void {
    const url = req.url ?? '/';
    const at = url.indexOf('?');
    const path = at < 0 ? url : url.slice(0, at);
    const pairs = parseQuery(at < 0 ? '' : url.slice(at + 1));
    const query = new Map(pairs);
    authenticate(req, path, pairs, body);
    const [, rawBucket = '', ...rawKey] = path.split('/');
    const bucket = decodeURIComponent(rawBucket);
    const key = rawKey.map(decodeURIComponent).join('/');
    const method = req.method!;
    const unsupported = UNSUPPORTED.find((name) => query.has(name));
    if (unsupported) throw new S3Error(501, 'NotImplemented', `?${unsupported} is not implemented by this test server.`);

    if (bucket === '') {
      if (method !== 'GET') throw new S3Error(405, 'MethodNotAllowed', 'The specified method is not allowed against this resource.');
      const list = [...buckets.keys()].map((b) => `<Bucket>${element('Name', b)}${element('CreationDate', new Date(0).toISOString())}</Bucket>`).join('');
      send(res, 200, xml('ListAllMyBucketsResult', `<Owner>${element('ID', accessKeyId)}</Owner><Buckets>${list}</Buckets>`));
      return;
    }
    if (key === '') {
      if (method === 'PUT') {
        if (!buckets.has(bucket)) buckets.set(bucket, new Map());
        send(res, 200, null, { location: `/${bucket}`, 'content-length': 0 });
        return;
      }
      if (method === 'HEAD') {
        bucketOf(bucket);
        send(res, 200, null, { 'content-length': 0 });
        return;
      }
      if (method === 'GET' && query.has('location')) {
        bucketOf(bucket);
        send(res, 200, xml('LocationConstraint', region === 'us-east-1' ? '' : xmlEscape(region)));
        return;
      }
      if (method === 'GET') {
        listObjects(res, bucket, query);
        return;
      }
      throw new S3Error(405, 'MethodNotAllowed', 'The specified method is not allowed against this resource.');
    }

    const objects = bucketOf(bucket);
    const uploadId = query.get('uploadId');
    if (method === 'POST' && query.has('uploads')) {
      const id = crypto.randomUUID();
      uploads.set(id, { bucket, key, parts: new Map() });
      send(res, 200, xml('InitiateMultipartUploadResult', `${element('Bucket', bucket)}${element('Key', key)}${element('UploadId', id)}`));
      return;
    }
    if (uploadId !== undefined) {
      if (method === 'PUT') {
        const partNumber = Number(query.get('partNumber'));
        if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > 10000) throw new S3Error(400, 'InvalidArgument', 'Part number must be an integer between 1 and 10000, inclusive');
        const upload = uploadOf(bucket, key, uploadId);
        checkDigest(req, body);
        const part = stored(body, undefined);
        upload.parts.set(partNumber, part);
        send(res, 200, null, { etag: part.etag, 'content-length': 0 });
        return;
      }
      if (method === 'GET') {
        listParts(res, bucket, key, uploadId, query);
        return;
      }
      if (method === 'POST') {
        completeMultipart(res, bucket, key, uploadId, body);
        return;
      }
      if (method === 'DELETE') {
        uploadOf(bucket, key, uploadId);
        uploads.delete(uploadId);
        send(res, 204, null);
        return;
      }
    }
    if (method === 'PUT') {
      const source = req.headers['x-amz-copy-source'];
      if (typeof source === 'string') {
        const [sourceBucket = '', ...sourceKey] = decodeURIComponent(source.replace(/^\//, '').split('?')[0]!).split('/');
        const original = objectOf(sourceBucket, sourceKey.join('/'));
        const copy = { ...original, lastModified: new Date() };
        objects.set(key, copy);
        send(res, 200, xml('CopyObjectResult', `${element('LastModified', copy.lastModified.toISOString())}${element('ETag', copy.etag)}`));
        return;
      }
      checkDigest(req, body);
      const object = stored(body, req.headers['content-type']);
      objects.set(key, object);
      send(res, 200, null, { etag: object.etag, 'content-length': 0 });
      return;
    }
    if (method === 'GET' || method === 'HEAD') {
      getObject(req, res, objectOf(bucket, key), query);
      return;
    }
    if (method === 'DELETE') {
      objects.delete(key);
      send(res, 204, null);
      return;
    }
    throw new S3Error(405, 'MethodNotAllowed', 'The specified method is not allowed against this resource.');
  }

  /** Held reads by key suffix: the answers waiting for their release. */
  const holds = new Map<string, (() => void)[]>();

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const answer = () => {
        try {
          handle(req, res, Buffer.concat(chunks));
        } catch (err) {
          const failure = err instanceof S3Error ? err : new S3Error(500, 'InternalError', String(err));
          const body = `${element('Code', failure.code)}${element('Message', failure.message)}${element('RequestId', crypto.randomUUID())}`;
          send(res, failure.status, req.method === 'HEAD' ? null : xml('Error', body, false));
        }
      };
      const path = decodeURIComponent((req.url ?? '/').split('?')[0]!);
      const held = req.method === 'GET' ? [...holds].find(([suffix]) => path.endsWith(suffix)) : undefined;
      if (held) held[1].push(() => void (req.socket.destroyed || answer()));
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    endpoint,
    region,
    accessKeyId,
    secretAccessKey,
    createBucket: (name) => void buckets.set(name, new Map()),
    env: (bucket) => ({
      S3_BUCKET: bucket,
      AWS_REGION: region,
      AWS_ACCESS_KEY_ID: accessKeyId,
      AWS_SECRET_ACCESS_KEY: secretAccessKey,
      AWS_ENDPOINT_URL_S3: endpoint,
      S3_FORCE_PATH_STYLE: 'true',
    }),
    holdReads: (suffix) => {
      holds.set(suffix, []);
      return () => {
        const waiting = holds.get(suffix) ?? [];
        holds.delete(suffix);
        for (const answer of waiting) answer();
      };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
