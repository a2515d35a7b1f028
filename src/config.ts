import os from 'node:os';
import path from 'node:path';

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
  /** How long a worker holds a job without renewing its lease before another may take it. */
  jobLeaseSeconds: number;
  /** Lets callbacks go to http:// and to private, loopback or link-local addresses (tests, closed networks). */
  callbackAllowPrivate: boolean;
  /** First callback retry delay; the later ones are multiples of it (see docs/callbacks.md). */
  callbackRetryBaseSeconds: number;
  /** An OpenAI-compatible endpoint that interprets Copilot instructions; the built-in engine when unset. */
  copilotModel: { baseUrl: string; apiKey: string | null; model: string } | null;
  /** Whether `/` serves the web app for photographers (web/, built into dist/web). */
  webApp: boolean;
}

export class ConfigError extends Error {}

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

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
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
    jobLeaseSeconds: positive(env, 'JOB_LEASE_SECONDS', 60),
    callbackAllowPrivate: boolean(env, 'CALLBACK_ALLOW_PRIVATE', false),
    callbackRetryBaseSeconds: positive(env, 'CALLBACK_RETRY_BASE_SECONDS', 15),
    copilotModel: copilotModel(env),
    webApp: boolean(env, 'WEB_APP', true),
  };
}
