import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Static, Type } from 'typebox';
import type { UploadsService } from '../../domain/uploads.js';
import type { LinkClaims, LinkSigner } from '../../storage/link-signer.js';
import { DigestMismatchError, InvalidKeyError, type LocalBlobStore } from '../../storage/local-blob-store.js';
import { contentDisposition, contentType } from '../../storage/object-headers.js';
import { errorBody } from '../errors.js';

const LinkQuery = Type.Object({
  method: Type.String(),
  expires: Type.Integer(),
  signature: Type.String(),
  md5: Type.Optional(Type.String()),
  uploadId: Type.Optional(Type.String()),
  partNumber: Type.Optional(Type.Integer({ minimum: 1, maximum: 10000 })),
});
type LinkQuery = Static<typeof LinkQuery>;

/** The object key of a /storage URL: its path after /storage/, segment by segment decoded. */
function keyOf(url: string): string {
  const path = url.split('?')[0]!.slice('/storage/'.length);
  return path.split('/').map(decodeURIComponent).join('/');
}

function parseRange(header: string | undefined, size: number): { start: number; end: number } | 'unsatisfiable' | null {
  const match = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!match || (match[1] === '' && match[2] === '')) return null;
  let start: number;
  let end: number;
  if (match[1] === '') {
    start = Math.max(0, size - Number(match[2]));
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  return start > end || start >= size ? 'unsatisfiable' : { start, end };
}

export interface StorageRouteOptions {
  blobs: LocalBlobStore;
  signer: LinkSigner;
  uploads: UploadsService;
}

/**
 * The embedded object storage: serves the presigned links of the local blob store. No API
 * key here; the HMAC signature in the link is the credential (reference §4.4, §5.2), and
 * the domain says whether the project still takes the write (links close on submit).
 */
export const storageRoutes: FastifyPluginAsyncTypebox<StorageRouteOptions> = async (app, { blobs, signer, uploads }) => {
  // Bytes stream to disk as they arrive: no body parsing in this scope.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null));

  function authorize(request: FastifyRequest<{ Querystring: LinkQuery }>, reply: FastifyReply, method: 'GET' | 'PUT'): string | null {
    const q = request.query;
    const key = keyOf(request.url);
    const claims: LinkClaims = { method, key, expires: q.expires, md5: q.md5, uploadId: q.uploadId, partNumber: q.partNumber };
    const verdict = q.method === method ? signer.check(claims, q.signature) : 'invalid';
    if (verdict === 'valid') return key;
    reply.code(403).send(errorBody(verdict === 'expired' ? 'This link has expired.' : 'The signature of this link is not valid.'));
    return null;
  }

  const schema = { hide: true, querystring: LinkQuery };

  app.put('/storage/*', { schema }, async (request, reply) => {
    const key = authorize(request, reply, 'PUT');
    if (key === null) return reply;
    const refusal = await uploads.writeRefusal(key);
    if (refusal !== null) return reply.code(403).send(errorBody(refusal));
    const contentMd5 = request.headers['content-md5'];
    const options = { contentMd5: typeof contentMd5 === 'string' ? contentMd5 : undefined, expectedMd5: request.query.md5 };
    try {
      const { uploadId, partNumber } = request.query;
      const info = uploadId !== undefined && partNumber !== undefined ? await blobs.writePart(uploadId, partNumber, request.raw, options) : await blobs.writeStream(key, request.raw, options);
      return reply.header('etag', info.etag).send({ data: { etag: info.etag, size: info.size } });
    } catch (err) {
      if (err instanceof DigestMismatchError) return reply.code(400).send(errorBody(err.message));
      if (err instanceof InvalidKeyError) return reply.code(404).send(errorBody('This upload does not exist or was aborted.'));
      throw err;
    }
  });

  app.get('/storage/*', { schema }, async (request, reply) => {
    const key = authorize(request, reply, 'GET');
    if (key === null) return reply;
    const info = await blobs.head(key).catch((err: unknown) => {
      if (err instanceof InvalidKeyError) return null;
      throw err;
    });
    if (!info) return reply.code(404).send(errorBody('The file does not exist.'));
    const range = parseRange(request.headers.range, info.size);
    if (range === 'unsatisfiable') {
      return reply.code(416).header('content-range', `bytes */${info.size}`).send(errorBody('The requested range is not satisfiable.'));
    }
    reply.header('content-type', contentType(key)).header('content-disposition', contentDisposition(key));
    reply.header('etag', info.etag).header('accept-ranges', 'bytes');
    if (request.headers['if-none-match'] === info.etag) return reply.code(304).send();
    if (range) {
      reply.code(206).header('content-range', `bytes ${range.start}-${range.end}/${info.size}`);
      reply.header('content-length', range.end - range.start + 1);
      return reply.send(blobs.readStream(key, range));
    }
    reply.header('content-length', info.size);
    return reply.send(blobs.readStream(key));
  });
};
