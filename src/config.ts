import os from 'node:os';
import path from 'node:path';
import { DEVELOP_BYTES_PER_PIXEL } from './imaging/develop-memory.js';

/** Everything the service reads from its environment, parsed once and typed. */
export interface Config {
  host: string;
  port: number;
  /** Base of every presigned link; undefined means "the address the server listens on". */
  publicUrl: string | undefined;
  dataDir: string;
  /** postgres://... switches from the embedded SQLite file to PostgreSQL. */
  databaseUrl: string | undefined;
  /** Lifetime of presigned links, in seconds. */
  linkTtlSeconds: number;
  /** Secret for presigned links; when unset one is generated and kept in the database. */
  signingSecret: string | undefined;
  logLevel: string;
  /** Whether this process runs queued jobs (edits, callbacks); `retouch serve` with RUN_JOBS=false serves the API only. */
  runJobs: boolean;
  /** Worker threads rendering photos; the number of cores by default. */
  imagingThreads: number;
  /** Nice levels (0..19) the imaging threads and libvips' workers run below the process's main thread, so that the API answers while photos keep every core busy; 0 leaves them at the API's priority. */
  imagingNice: number;
  /** Memory the imaging threads may take at once, in MiB: a photo waits for its share. Half the machine's (or container's) by default. */
  imagingMemoryMb: number;
  /** Largest photo accepted, per frame, in megapixels: larger ones fail alone, from their header. By default what the budget holds. */
  maxImageMegapixels: number;
  /** How long a worker holds a job without renewing its lease before another may take it. */
  jobLeaseSeconds: number;
  /** Lets callbacks go to http:// and to private, loopback or link-local addresses (tests, closed networks). */
  callbackAllowPrivate: boolean;
  /** First callback retry delay; the later ones are multiples of it (see docs/callbacks.md). */
  callbackRetryBaseSeconds: number;
  /** An OpenAI-compatible endpoint that interprets Copilot instructions; the built-in engine when unset. */
  copilotModel: { baseUrl: string; apiKey: string | null; model: string } | null;
  /** Blobs in an S3 bucket when S3_BUCKET is set; on local disk under DATA_DIR otherwise. */
  s3: S3Config | null;
  /** Whether `/` serves the web app for photographers (web/, built into dist/web). */
  webApp: boolean;
}

/** An S3 bucket (AWS, or an S3-compatible server) holding every blob instead of DATA_DIR. */
export interface S3Config {
  bucket: string;
  region: string;
  /** AWS_ENDPOINT_URL_S3: an S3-compatible server (MinIO, Ceph, R2...); AWS itself when undefined. */
  endpoint: string | undefined;
  /** Bucket in the path (http://host/bucket/key) rather than in the host name; most S3-compatible servers need it. */
  forcePathStyle: boolean;
  /** Prepended to every key ('' or ending with '/'), so that one bucket can hold several installations. */
  prefix: string;
  /** From AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY; undefined lets the AWS SDK find them (profile, instance role...). */
  credentials: { accessKeyId: string; secretAccessKey: string; sessionToken?: string } | undefined;
}

export class ConfigError extends Error {}

/** The machine's memory, or the container's limit when that is lower. */
function machineMemory(): number {
  return Math.min(os.totalmem(), process.constrainedMemory() || Infinity);
}

/** The largest photo (of the most demanding kind, a RAW) whose development fits the budget alone. */
function megapixelsWithin(memoryMb: number): number {
  return Math.floor((memoryMb * 2 ** 20) / Math.max(...Object.values(DEVELOP_BYTES_PER_PIXEL)) / 1e6);
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer between ${min} and ${max}, got "${raw}"`);
  }
  return value;
}

function boolean(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name]?.toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(`${name} must be true or false, got "${env[name]}"`);
}

function positive(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new ConfigError(`${name} must be a positive number, got "${raw}"`);
  return value;
}

function optional(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const raw = env[name];
  return raw === undefined || raw === '' ? undefined : raw;
}

function copilotModel(env: NodeJS.ProcessEnv): Config['copilotModel'] {
  const baseUrl = optional(env, 'COPILOT_MODEL_URL');
  if (baseUrl === undefined) return null;
  if (!/^https?:\/\//.test(baseUrl)) throw new ConfigError(`COPILOT_MODEL_URL must be an http(s) URL, got "${baseUrl}"`);
  const model = optional(env, 'COPILOT_MODEL_NAME');
  if (model === undefined) throw new ConfigError('COPILOT_MODEL_NAME must be set with COPILOT_MODEL_URL');
  return { baseUrl, apiKey: optional(env, 'COPILOT_MODEL_KEY') ?? null, model };
}

function s3(env: NodeJS.ProcessEnv): S3Config | null {
  const bucket = optional(env, 'S3_BUCKET');
  if (bucket === undefined) return null;
  const endpoint = optional(env, 'AWS_ENDPOINT_URL_S3') ?? optional(env, 'AWS_ENDPOINT_URL');
  if (endpoint !== undefined && !/^https?:\/\/[^/]+/.test(endpoint)) throw new ConfigError(`AWS_ENDPOINT_URL_S3 must be an http(s) URL, got "${endpoint}"`);
  const accessKeyId = optional(env, 'AWS_ACCESS_KEY_ID');
  const secretAccessKey = optional(env, 'AWS_SECRET_ACCESS_KEY');
  if ((accessKeyId === undefined) !== (secretAccessKey === undefined)) throw new ConfigError('AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY must be set together');
  const sessionToken = optional(env, 'AWS_SESSION_TOKEN');
  const prefix = (optional(env, 'S3_PREFIX') ?? '').replace(/^\/+|\/+$/g, '');
  return {
    bucket,
    region: optional(env, 'AWS_REGION') ?? optional(env, 'AWS_DEFAULT_REGION') ?? 'us-east-1',
    endpoint,
    forcePathStyle: boolean(env, 'S3_FORCE_PATH_STYLE', false),
    prefix: prefix === '' ? '' : `${prefix}/`,
    credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) } : undefined,
  };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const imagingMemoryMb = integer(env, 'IMAGING_MEMORY_MB', Math.floor(machineMemory() / 2 ** 21), 64, 2 ** 30);
  const databaseUrl = optional(env, 'DATABASE_URL');
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError(`DATABASE_URL must start with postgres:// or postgresql://, got "${databaseUrl}"`);
  }
  const publicUrl = optional(env, 'PUBLIC_URL');
  if (publicUrl !== undefined && !/^https?:\/\/[^/]+/.test(publicUrl)) {
    throw new ConfigError(`PUBLIC_URL must be an http(s) URL, got "${publicUrl}"`);
  }
  return {
    host: optional(env, 'HOST') ?? '127.0.0.1',
    port: integer(env, 'PORT', 8080, 0, 65535),
    publicUrl: publicUrl?.replace(/\/+$/, ''),
    dataDir: path.resolve(optional(env, 'DATA_DIR') ?? 'data'),
    databaseUrl,
    linkTtlSeconds: integer(env, 'LINK_TTL_SECONDS', 3600, 1, 7 * 24 * 3600),
    signingSecret: optional(env, 'SIGNING_SECRET'),
    logLevel: optional(env, 'LOG_LEVEL') ?? 'info',
    runJobs: boolean(env, 'RUN_JOBS', true),
    imagingThreads: integer(env, 'IMAGING_THREADS', os.availableParallelism(), 1, 256),
    imagingNice: integer(env, 'IMAGING_NICE', 10, 0, 19),
    imagingMemoryMb,
    maxImageMegapixels: positive(env, 'MAX_IMAGE_MEGAPIXELS', megapixelsWithin(imagingMemoryMb)),
    jobLeaseSeconds: positive(env, 'JOB_LEASE_SECONDS', 60),
    callbackAllowPrivate: boolean(env, 'CALLBACK_ALLOW_PRIVATE', false),
    callbackRetryBaseSeconds: positive(env, 'CALLBACK_RETRY_BASE_SECONDS', 15),
    copilotModel: copilotModel(env),
    s3: s3(env),
    webApp: boolean(env, 'WEB_APP', true),
  };
}
