import { InvalidArgumentError } from 'commander';
import { loadConfig } from '../config.js';
import type { Services } from '../services.js';

/** Runs fn with the services of the configured installation, closing them after. */
export async function withServices<T>(fn: (services: Services) => Promise<T>): Promise<T> {
  // Loaded here, not at the top: the database and imaging modules are slow to load and most commands never need them.
  const { createServices } = await import('../services.js');
  const services = await createServices(loadConfig());
  try {
    return await fn(services);
  } finally {
    await services.close();
  }
}

export function nonNegativeInteger(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('expected a non-negative integer');
  return n;
}

export function print(text: string): void {
  process.stdout.write(`${text}\n`);
}
