import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { ApiError } from '../../platform/errors.js';
import type { Log } from '../../platform/log.js';
import { bestEffort } from '../../platform/storage-full.js';
import type { ApiKeyRecord, ApiKeyRepository, BudgetLink } from './repository.js';
import { ALL_SCOPES, BUDGET_DEFAULT_LIMITS, budgetsOf, type Budget, type RateLimits, type Scope } from './scopes.js';
import type { EventBus } from '../../platform/events.js';

export const KEY_PREFIX = 'tmb_';
/** 32 random bytes, base64url: 43 characters after the prefix. */
const SECRET_BYTES = 32;
const KEY_PATTERN = /^tmb_[A-Za-z0-9_-]{43,}$/;
/** Characters of the key kept in clear, enough to recognise it in a list. */
const PREFIX_LENGTH = 12;
/**
 * `last_used_at` is written at most this often per key: it tells whether and when a key is in use,
 * to the minute, without making every request, reads included, a write that a full disk would fail.
 */
const LAST_USED_WRITE_MS = 60_000;

export interface CreateKeyInput {
  name: string;
  scopes?: Scope[];
  rateLimits?: RateLimits;
  /** Megabytes of stored files (0: no limit); absent or null follows the default. */
  storageQuotaMb?: number | null;
}

export interface CreatedKey {
  record: ApiKeyRecord;
  secret: string;
}

function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

function now(): string {
  return new Date().toISOString();
}

/** A key as clients see it: everything but the hash, in the API's field names. */
export function publicView(record: ApiKeyRecord) {
  return {
    key_id: record.keyId,
    name: record.name,
    prefix: record.prefix,
    scopes: record.scopes,
    rate_limits: record.rateLimits,
    created_at: record.createdAt,
    last_used_at: record.lastUsedAt,
    revoked_at: record.revokedAt,
    created_by: record.createdBy,
    storage_quota_mb: record.storageQuotaMb,
  };
}

export function isWellFormedKey(secret: string): boolean {
  return KEY_PATTERN.test(secret);
}

/**
 * API keys: creation with non-escalation, authentication with constant-time comparison,
 * revocation and deletion. A key sees and manages only its own line: itself and the keys below it
 * (those it created, and theirs). The caller is `undefined` for the local CLI, which acts as the
 * owner and sees every key.
 */
export class KeyService {
  /** When this process last tried to write each key's `last_used_at`, written or not. */
  private readonly lastUseWrites = new Map<string, number>();

  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly events: EventBus,
    private readonly log: Log,
  ) {}

  create(input: CreateKeyInput, caller?: ApiKeyRecord): CreatedKey {
    const scopes = [...new Set(input.scopes ?? caller?.scopes ?? ALL_SCOPES)];
    if (caller) assertScopesHeld(scopes, caller);
    const rateLimits = resolveLimits(scopes, input.rateLimits ?? {}, caller);
    const secret = `${KEY_PREFIX}${randomBytes(SECRET_BYTES).toString('base64url')}`;
    return this.insert(input.name, scopes, rateLimits, secret, caller?.keyId ?? null, input.storageQuotaMb ?? null);
  }

  /** Creates the key given at start (TIMBRE_API_KEY) with all scopes, unless it already exists. */
  ensureBootstrapKey(secret: string): { created: boolean; record: ApiKeyRecord } {
    if (!isWellFormedKey(secret)) {
      throw new ApiError(400, 'invalid_api_key', `The bootstrap key must be "${KEY_PREFIX}" followed by at least 43 URL-safe base64 characters`);
    }
    const existing = this.findBySecret(secret);
    if (existing) return { created: false, record: existing };
    const created = this.insert('bootstrap', ALL_SCOPES, resolveLimits(ALL_SCOPES, {}), secret, null, null);
    return { created: true, record: created.record };
  }

  /** Resolves the key presented with a request; throws the reason it cannot be used. */
  authenticate(secret: string | undefined): ApiKeyRecord {
    if (!secret) throw new ApiError(401, 'missing_api_key', 'Send an API key in the X-API-Key header');
    return this.admit(isWellFormedKey(secret) ? this.findBySecret(secret) : undefined);
  }

  /** The key a studio session or sign-in link acts as, admitted as if it had been presented. */
  authenticateById(keyId: string): ApiKeyRecord {
    return this.admit(this.keys.findById(keyId));
  }

  private admit(record: ApiKeyRecord | undefined): ApiKeyRecord {
    if (!record) throw new ApiError(401, 'invalid_api_key', 'The API key is not valid');
    if (record.revokedAt) {
      throw new ApiError(401, 'key_revoked', 'The API key has been revoked', { key_id: record.keyId, revoked_at: record.revokedAt });
    }
    return { ...record, lastUsedAt: this.noteUse(record) };
  }

  /** Every key for the owner; for a key, its own line. */
  list(caller?: ApiKeyRecord): ApiKeyRecord[] {
    return caller ? this.keys.listLine(caller.keyId) : this.keys.list();
  }

  get(keyId: string): ApiKeyRecord {
    const record = this.keys.findById(keyId);
    if (!record) throw keyNotFound(keyId);
    return record;
  }

  update(keyId: string, changes: { name?: string; rateLimits?: RateLimits; storageQuotaMb?: number | null }, caller?: ApiKeyRecord): ApiKeyRecord {
    const target = this.inLine(keyId, caller);
    const rateLimits = changes.rateLimits && resolveLimits(target.scopes, { ...target.rateLimits, ...changes.rateLimits }, caller);
    this.keys.update(keyId, { name: changes.name, rateLimits, storageQuotaMb: changes.storageQuotaMb });
    this.events.publish({ type: 'key.updated', data: { key_id: keyId }, audience: { internal: true } });
    return this.get(keyId);
  }

  revoke(keyId: string, caller?: ApiKeyRecord): ApiKeyRecord {
    this.inLine(keyId, caller);
    this.keys.markRevoked(keyId, now());
    this.events.publish({ type: 'key.revoked', data: { key_id: keyId }, audience: { internal: true } });
    return this.get(keyId);
  }

  /** The key is refused from now on; keys it created keep sharing its budget (see ApiKeyRepository.delete). */
  delete(keyId: string, caller?: ApiKeyRecord): void {
    this.inLine(keyId, caller);
    this.keys.delete(keyId, now());
    this.events.publish({ type: 'key.deleted', data: { key_id: keyId }, audience: { internal: true } });
  }

  /** The budgets a request of this key is counted against: its own, then its creator's, and so on up. */
  budgetChain(keyId: string): BudgetLink[] {
    return this.keys.budgetChain(keyId);
  }

  private insert(name: string, scopes: Scope[], rateLimits: RateLimits, secret: string, createdBy: string | null, storageQuotaMb: number | null): CreatedKey {
    const record: ApiKeyRecord = {
      keyId: `key_${randomBytes(9).toString('base64url')}`,
      name,
      prefix: secret.slice(0, PREFIX_LENGTH),
      secretHash: hashSecret(secret),
      scopes,
      rateLimits,
      createdAt: now(),
      lastUsedAt: null,
      revokedAt: null,
      createdBy,
      storageQuotaMb,
    };
    this.keys.insert(record);
    return { record, secret };
  }

  /** Records a use of the key at most once a minute, best-effort; answers the time of this use. */
  private noteUse(record: ApiKeyRecord): string {
    const at = Date.now();
    const lastWrite = this.lastUseWrites.get(record.keyId) ?? Number.NEGATIVE_INFINITY;
    const usedAt = new Date(at).toISOString();
    if (at - lastWrite >= LAST_USED_WRITE_MS) {
      this.lastUseWrites.set(record.keyId, at);
      bestEffort(this.log, `last use of key ${record.keyId}`, () => this.keys.markUsed(record.keyId, usedAt));
    }
    return usedAt;
  }

  private findBySecret(secret: string): ApiKeyRecord | undefined {
    const presented = Buffer.from(hashSecret(secret), 'hex');
    return this.keys.findByPrefix(secret.slice(0, PREFIX_LENGTH)).find((candidate) => timingSafeEqual(Buffer.from(candidate.secretHash, 'hex'), presented));
  }

  /**
   * The key, when the caller may see and manage it: itself or a key below it. Any other is
   * answered as missing, so a key learns nothing of other lines, not even which ids exist.
   */
  private inLine(keyId: string, caller?: ApiKeyRecord): ApiKeyRecord {
    const target = this.get(keyId);
    // A key's creators, up to the owner's key, are its budget chain.
    if (caller && !this.keys.budgetChain(keyId).some((link) => link.keyId === caller.keyId)) throw keyNotFound(keyId);
    return target;
  }
}

function keyNotFound(keyId: string): ApiError {
  return new ApiError(404, 'key_not_found', `No API key ${keyId}`, { key_id: keyId });
}

function assertScopesHeld(scopes: Scope[], caller: ApiKeyRecord): void {
  const missing = scopes.filter((scope) => !caller.scopes.includes(scope));
  if (missing.length > 0) {
    throw new ApiError(403, 'scope_escalation', 'A key cannot grant scopes it does not hold', { missing_scopes: missing });
  }
}

/**
 * The limit table for a key holding `scopes` (one per budget it has): explicit limits where given,
 * otherwise the default, and never above the caller's own limit in that budget.
 */
function resolveLimits(scopes: Scope[], requested: RateLimits, caller?: ApiKeyRecord): RateLimits {
  const budgets = budgetsOf(scopes);
  const unknown = Object.keys(requested).filter((name) => !budgets.some((budget) => budget === name));
  if (unknown.length > 0) {
    throw new ApiError(400, 'invalid_request', 'rate_limits names budgets the key does not have (task_reads comes with tts:generate)', { budgets: unknown });
  }
  const limits: RateLimits = {};
  const excessive: { budget: Budget; requested: number; allowed: number }[] = [];
  for (const budget of budgets) {
    const ceiling = caller ? (caller.rateLimits[budget] ?? 0) : Number.POSITIVE_INFINITY;
    const explicit = requested[budget];
    if (explicit !== undefined && explicit > ceiling) excessive.push({ budget, requested: explicit, allowed: ceiling });
    limits[budget] = explicit ?? Math.min(BUDGET_DEFAULT_LIMITS[budget], ceiling);
  }
  if (excessive.length > 0) {
    throw new ApiError(403, 'rate_limit_escalation', 'A key cannot grant a higher rate limit than its own', { limits: excessive });
  }
  return limits;
}
