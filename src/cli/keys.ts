import type { Config } from '../platform/config.js';
import { ApiError } from '../platform/errors.js';
import { EventBus } from '../platform/events.js';
import { createLog } from '../platform/log.js';
import { openDatabase } from '../platform/store/database.js';
import { ApiKeyRepository, KeyService, publicView, isBudget, isScope, type RateLimits, type Scope, type ApiKeyRecord } from '../features/access/index.js';

interface KeyOptions {
  name: string | undefined;
  scopes: string | undefined;
  rateLimits: string[];
  /** The key's storage quota in megabytes (0: no limit); absent, the default. */
  quotaMb: string | undefined;
  json: boolean;
}

export function parseScopes(raw: string | undefined): Scope[] | undefined {
  if (raw === undefined) return undefined;
  const scopes = raw
    .split(',')
    .map((scope) => scope.trim())
    .filter(Boolean);
  const unknown = scopes.filter((scope) => !isScope(scope));
  if (unknown.length > 0 || scopes.length === 0) throw new ApiError(400, 'invalid_request', `Unknown scopes: ${unknown.join(', ') || '(none given)'}`);
  return scopes as Scope[];
}

/** `budget=N` pairs (a scope, or task_reads), as given to --rate-limit or to `keys limits`. */
export function parseLimits(pairs: string[]): RateLimits {
  const limits: RateLimits = {};
  for (const pair of pairs) {
    const [budget, raw] = pair.split('=');
    const value = Number(raw);
    if (!budget || !isBudget(budget) || !Number.isInteger(value) || value < 1) {
      throw new ApiError(400, 'invalid_request', `Expected budget=N with a scope or task_reads and a positive integer, got "${pair}"`);
    }
    limits[budget] = value;
  }
  return limits;
}

/** `--quota-mb N`: megabytes of stored files, 0 for no limit. */
export function parseQuota(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(value))
    throw new ApiError(400, 'invalid_request', `Expected --quota-mb with megabytes (0: no limit), got "${raw}"`);
  return value;
}

function describe(record: ApiKeyRecord): string {
  const state = record.revokedAt ? `revoked ${record.revokedAt}` : 'active';
  const limits = Object.entries(record.rateLimits)
    .map(([scope, limit]) => `${scope}=${limit}`)
    .join(' ');
  const quota = record.storageQuotaMb === null ? 'the default' : record.storageQuotaMb === 0 ? 'no limit' : `${record.storageQuotaMb} MB`;
  return `${record.keyId}  ${record.prefix}…  ${record.name}  (${state})\n  scopes: ${record.scopes.join(', ')}\n  limits per minute: ${limits}\n  storage quota: ${quota}`;
}

/**
 * Local key management: the bootstrap path, since the desktop app's API tab is not part of this
 * service. The CLI acts as the owner of the data directory: it sees and manages every key, of
 * every line; keys it creates are roots (no creator).
 */
export async function keysCommand(config: Config, args: string[], options: KeyOptions): Promise<number> {
  // Keys need the store alone: the CLI does not load the service's other capabilities to make one.
  const log = createLog(config.logLevel);
  const db = openDatabase(config.dataDir);
  const keys = new KeyService(new ApiKeyRepository(db), new EventBus(log), log);
  const print = (text: string, json: unknown) => process.stdout.write(options.json ? `${JSON.stringify(json)}\n` : `${text}\n`);
  try {
    const [action, keyId, ...rest] = args;
    switch (action) {
      case 'create': {
        if (!options.name) throw new ApiError(400, 'invalid_request', 'keys create needs --name NAME');
        const created = keys.create({
          name: options.name,
          scopes: parseScopes(options.scopes),
          rateLimits: parseLimits(options.rateLimits),
          storageQuotaMb: parseQuota(options.quotaMb),
        });
        print(`${describe(created.record)}\n\n${created.secret}\n\nThis is the only time the key is shown. Send it in the X-API-Key header.`, {
          ...publicView(created.record),
          key: created.secret,
        });
        return 0;
      }
      case 'list': {
        const listed = keys.list();
        print(listed.map(describe).join('\n') || 'No API keys yet. Create one with: timbre keys create --name NAME', listed.map(publicView));
        return 0;
      }
      case 'limits': {
        if (!keyId || rest.length === 0) throw new ApiError(400, 'invalid_request', 'keys limits needs KEY_ID and budget=N pairs (a scope, or task_reads)');
        const record = keys.update(keyId, { rateLimits: parseLimits(rest) });
        print(describe(record), publicView(record));
        return 0;
      }
      case 'revoke': {
        if (!keyId) throw new ApiError(400, 'invalid_request', 'keys revoke needs KEY_ID');
        const record = keys.revoke(keyId);
        print(describe(record), publicView(record));
        return 0;
      }
      case 'delete': {
        if (!keyId) throw new ApiError(400, 'invalid_request', 'keys delete needs KEY_ID');
        keys.delete(keyId);
        print(`Deleted ${keyId}`, { deleted: keyId });
        return 0;
      }
      default:
        throw new ApiError(400, 'invalid_request', `Unknown keys action "${action ?? ''}": use create, list, limits, revoke or delete`);
    }
  } finally {
    db.close();
  }
}
