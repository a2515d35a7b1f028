import type { FastifyRequest } from 'fastify';
import type { Account, AccountsService } from '../domain/accounts.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller, set by the /v1 authentication hook before any handler runs. */
    account: Account;
  }
}

/** onRequest hook for /v1: resolves x-api-key to an account or fails with 401. */
export function authenticate(accounts: AccountsService) {
  return async (request: FastifyRequest): Promise<void> => {
    const header = request.headers['x-api-key'];
    request.account = await accounts.authenticate(Array.isArray(header) ? header[0] : header);
  };
}
