import type { FastifyInstance, RouteOptions } from 'fastify';
import { ApiError } from '../../platform/errors.js';
import { isJsonObject } from '../../platform/http/json-object.js';
import type { ApiKeyRecord, Scope } from '../access/index.js';
import type { StorageUsage } from './usage.js';

export const QUOTA_ERROR = 'storage_quota_exceeded';

const MEGABYTE = 1024 * 1024;

/** The scopes whose POST routes make stored files; each such route is refused while its key is over quota. */
const STORING_SCOPES: readonly Scope[] = ['tts:generate', 'tts:timeline', 'clone:create', 'audio:process'];

/** POST routes of those scopes that store nothing, or only free space: they are never refused. */
const STORES_NOTHING = new Set([
  '/api/generation/cancel',
  '/api/clone/cancel',
  '/api/design/cancel',
  '/api/text/split',
  '/api/audio-duration',
  '/api/tasks/:task_id/chunks/:index/select',
]);

/** What a route declares, as registered (`onRoute`) and as matched for a request (`routeOptions`). */
interface RouteDeclaration {
  method: string | string[];
  url?: string;
  config?: { scope?: Scope; budget?: string };
}

function storesFiles(route: RouteDeclaration): boolean {
  const scope = route.config?.scope;
  const methods = [route.method].flat();
  // A route counted in another budget (task_reads) only reads.
  return methods.includes('POST') && scope !== undefined && STORING_SCOPES.includes(scope) && !route.config?.budget && !STORES_NOTHING.has(route.url ?? '');
}

/** The bytes a key may hold: its own quota, else the default; null when unlimited (0). */
export function quotaBytes(key: Pick<ApiKeyRecord, 'storageQuotaMb'>, defaultMb: number): number | null {
  const megabytes = key.storageQuotaMb ?? defaultMb;
  return megabytes === 0 ? null : megabytes * MEGABYTE;
}

/** The route's 507 answer with the quota's code added to the codes it documents. */
function documentQuota(route: RouteOptions): void {
  const responses = route.schema?.response;
  if (!isJsonObject(responses)) return;
  const current = responses[507];
  const description = isJsonObject(current) && typeof current.description === 'string' ? current.description : 'Insufficient Storage:';
  route.schema = {
    ...route.schema,
    response: { ...responses, 507: { ...(isJsonObject(current) ? current : {}), description: `${description}, \`${QUOTA_ERROR}\`` } },
  };
}

/** How keys stand to one another: the line above a key (itself first, with quotas) and the keys beneath one (itself included). */
export interface KeyLine {
  above(keyId: string): { keyId: string; storageQuotaMb: number | null }[];
  below(keyId: string): string[];
}

/**
 * Refuses work that would store files while its key, or any key above it, holds its storage quota
 * or more (507 `storage_quota_exceeded`), before the body is read and before any job starts. A
 * key's quota counts the files of the keys it created too, so minting keys cannot multiply it, as
 * rate limits are counted up the line. Installed after authentication, which names the key; reads
 * are never refused. Each guarded route's OpenAPI answer lists the code.
 */
export function installStorageQuota(app: FastifyInstance, usage: StorageUsage, defaultMb: number, line: KeyLine): void {
  app.addHook('onRoute', (route) => {
    if (storesFiles(route)) documentQuota(route);
  });
  app.addHook('onRequest', async (request) => {
    const key = request.apiKey;
    if (!key || !storesFiles(request.routeOptions)) return;
    for (const link of line.above(key.keyId)) {
      const quota = quotaBytes(link, defaultMb);
      if (quota === null) continue;
      const used = [...(await usage.usedBytes(line.below(link.keyId))).values()].reduce((sum, bytes) => sum + bytes, 0);
      if (used < quota) continue;
      const whose =
        link.keyId === key.keyId ? 'This key and the keys it created hold' : `The key ${link.keyId} above this one, with the keys it created, holds`;
      throw new ApiError(
        507,
        QUOTA_ERROR,
        `${whose} ${megabytes(used)} MB of stored files, at or above its quota of ${megabytes(quota)} MB: delete tasks, projects or assets, or raise storage_quota_mb`,
        { key_id: link.keyId, used_bytes: used, quota_bytes: quota },
      );
    }
  });
}

function megabytes(bytes: number): string {
  return (bytes / MEGABYTE).toFixed(1);
}
