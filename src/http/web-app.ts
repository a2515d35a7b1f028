import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/** Where `npm run build` puts the web app (Vite's output of web/). */
export const WEB_APP_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web');

/**
 * The app's own pages, answered with index.html so that a reload or a shared link opens
 * them (web/src/routes.ts lists the same). Nothing under /v1, /storage, /docs and the
 * operator routes is here, and other unknown paths keep their JSON 404.
 */
const PAGES = ['/new', '/projects/*'];

// The app's scripts are its own; photos and uploads may live on another origin (S3).
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' blob: data: http: https:",
  "connect-src 'self' http: https:",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'self'",
].join('; ');

/**
 * Serves the web app for photographers at `/` (WEB_APP=false leaves it out). Only the
 * files of the build get routes; hashed assets are cached for good, pages never.
 */
export async function webAppRoutes(app: FastifyInstance, { root = WEB_APP_DIR }: { root?: string } = {}): Promise<void> {
  if (!fs.existsSync(path.join(root, 'index.html'))) {
    app.log.warn(`the web app is not built (no ${root}/index.html): run npm run build`);
    return;
  }
  await app.register(fastifyStatic, {
    root,
    wildcard: false,
    // Our own cache-control below, not send's max-age=0.
    cacheControl: false,
    setHeaders(res, file) {
      if (file.startsWith(path.join(root, 'assets') + path.sep)) res.setHeader('cache-control', 'public, max-age=31536000, immutable');
      else res.setHeader('cache-control', 'no-cache');
      if (file.endsWith('.html')) {
        res.setHeader('content-security-policy', CSP);
        res.setHeader('referrer-policy', 'same-origin');
        res.setHeader('x-content-type-options', 'nosniff');
      }
    },
  });
  for (const page of PAGES) app.get(page, { schema: { hide: true } }, (_request, reply) => reply.sendFile('index.html'));
}
