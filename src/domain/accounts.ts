import crypto from 'node:crypto';
import { isUniqueViolation } from '../db/connect.js';
import type { Repos } from '../db/repos/index.js';
import type { Account } from '../db/schema.js';
import { nowIso } from './clock.js';
import { InvalidRequest, NotFound, Unauthenticated } from './errors.js';

export type { Account };

export const DEMO_ACCOUNT = 'demo';

/** Keys are 32 random bytes; only their SHA-256 is stored, so a leaked database leaks no key. */
function newApiKey(): { key: string; hash: string } {
  const key = `rt_${crypto.randomBytes(32).toString('base64url')}`;
  return { key, hash: hashApiKey(key) };
}

function newWebhookSecret(): string {
  return `whsec_${crypto.randomBytes(32).toString('base64url')}`;
}

export function hashApiKey(key: string): string {
  // One-shot: a Hash object per request cost more than the digest itself.
  return crypto.hash('sha256', key, 'hex');
}

export interface CreatedAccount {
  account: Account;
  apiKey: string;
}

/** Keys whose accounts are kept; past it the longest kept is dropped. */
const MAX_CACHED_KEYS = 1000;

export class AccountsService {
  /**
   * Accounts by key hash. Every request authenticates, and the lookup was a query each;
   * a kept account is used only while nothing else has written the database since it was
   * read (`dataVersion`, SQLite's count of other connections' commits: a key rotated from
   * the CLI stops working at once), and this service's own writes drop them all. Without
   * `dataVersion` (PostgreSQL, whose other processes' writes this one cannot see cheaply) nothing is kept.
   */
  private readonly accountsByKey = new Map<string, Account>();
  private keptAtVersion: number | undefined;
  /** Counts forgettings, so that a lookup that raced a write does not keep what it read. */
  private generation = 0;

  constructor(
    private readonly repos: Repos,
    private readonly dataVersion?: () => number,
  ) {}

  async create(name: string, trialCap: number | null = null): Promise<CreatedAccount> {
    if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(name)) {
      throw new InvalidRequest(`Account name "${name}" is not valid: use 1 to 64 letters, digits, ".", "_" or "-".`);
    }
    if (trialCap !== null && (!Number.isInteger(trialCap) || trialCap < 0)) {
      throw new InvalidRequest(`The trial cap must be a non-negative integer, got ${trialCap}.`);
    }
    const { key, hash } = newApiKey();
    try {
      const account = await this.repos.accounts.insert({
        name,
        api_key_hash: hash,
        trial_cap: trialCap,
        webhook_secret: newWebhookSecret(),
        created_at: nowIso(),
      });
      return { account, apiKey: key };
    } catch (err) {
      if (isUniqueViolation(err)) throw new InvalidRequest(`An account named "${name}" already exists.`);
      throw err;
    }
  }

  /** Replaces the account's key; the old one stops working with this call. */
  async rotateKey(name: string): Promise<string> {
    const account = await this.repos.accounts.byName(name);
    if (!account) throw new NotFound(`No account named "${name}".`);
    const { key, hash } = newApiKey();
    await this.repos.accounts.setKeyHash(account.id, hash);
    this.forget();
    return key;
  }

  /** The key that signs this account's callbacks (docs/callbacks.md). */
  async webhookSecret(accountId: number): Promise<string> {
    const account = await this.repos.accounts.byId(accountId);
    if (!account) throw new NotFound(`No account with id ${accountId}.`);
    if (account.webhook_secret) return account.webhook_secret;
    const secret = await this.repos.accounts.initWebhookSecret(accountId, newWebhookSecret());
    this.forget();
    return secret;
  }

  async webhookSecretByName(name: string): Promise<string> {
    const account = await this.repos.accounts.byName(name);
    if (!account) throw new NotFound(`No account named "${name}".`);
    return this.webhookSecret(account.id);
  }

  list(): Promise<Account[]> {
    return this.repos.accounts.list();
  }

  async authenticate(apiKey: string | undefined): Promise<Account> {
    if (!apiKey) throw new Unauthenticated('Missing API key: send it in the x-api-key header.');
    const hash = hashApiKey(apiKey);
    const kept = this.keptAccount(hash);
    if (kept) return kept;
    const generation = this.generation;
    const account = await this.repos.accounts.byKeyHash(hash);
    if (!account) throw new Unauthenticated('Invalid API key.');
    if (this.dataVersion && generation === this.generation) this.keep(hash, account);
    return account;
  }

  /** Drops every kept account; called after this service writes one. */
  private forget(): void {
    this.accountsByKey.clear();
    this.generation++;
  }

  /** The account kept for this key hash, if nothing else wrote the database since; forgets them all when something did. */
  private keptAccount(hash: string): Account | undefined {
    if (!this.dataVersion) return undefined;
    const version = this.dataVersion();
    if (version !== this.keptAtVersion) {
      this.forget();
      this.keptAtVersion = version;
    }
    return this.accountsByKey.get(hash);
  }

  private keep(hash: string, account: Account): void {
    if (this.accountsByKey.size >= MAX_CACHED_KEYS) this.accountsByKey.delete(this.accountsByKey.keys().next().value!);
    this.accountsByKey.set(hash, account);
  }

  /** Creates the demo account on a fresh installation; returns its key, or null when accounts exist. */
  async ensureDemo(): Promise<string | null> {
    if ((await this.repos.accounts.count()) > 0) return null;
    try {
      return (await this.create(DEMO_ACCOUNT)).apiKey;
    } catch (err) {
      // Another process sharing the database created it first.
      if (err instanceof InvalidRequest) return null;
      throw err;
    }
  }
}
