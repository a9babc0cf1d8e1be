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

/**
 * Refuses work that would store files while its key holds its storage quota or more (507
 * `storage_quota_exceeded`), before the body is read and before any job starts. Installed after
 * authentication, which names the key; reads are never refused. Each guarded route's OpenAPI
 * answer lists the code.
 */
export function installStorageQuota(app: FastifyInstance, usage: StorageUsage, defaultMb: number): void {
  app.addHook('onRoute', (route) => {
    if (storesFiles(route)) documentQuota(route);
  });
  app.addHook('onRequest', async (request) => {
    const key = request.apiKey;
    if (!key || !storesFiles(request.routeOptions)) return;
    const quota = quotaBytes(key, defaultMb);
    if (quota === null) return;
    const used = await usage.usedBytesOf(key.keyId);
    if (used < quota) return;
    throw new ApiError(
      507,
      QUOTA_ERROR,
      `This key holds ${megabytes(used)} MB of stored files, at or above its quota of ${megabytes(quota)} MB: delete tasks or assets, or raise the key's storage_quota_mb`,
      { key_id: key.keyId, used_bytes: used, quota_bytes: quota },
    );
  });
}

function megabytes(bytes: number): string {
  return (bytes / MEGABYTE).toFixed(1);
}
