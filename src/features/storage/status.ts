import { Type, type Static } from 'typebox';
import { Nullable, TimestampSchema } from '../../platform/http/schemas.js';
import type { ApiKeyRecord } from '../access/index.js';
import { quotaBytes } from './quota.js';
import type { TaskRetention } from './retention.js';
import type { StorageUsage } from './usage.js';

const Bytes = Type.Integer({ minimum: 0, description: 'bytes' });

const KeyStorageSchema = Type.Object({
  key_id: Type.String(),
  name: Type.String(),
  used_bytes: Type.Integer({ minimum: 0, description: 'Bytes of the files its work holds: task audio, chunk takes, renders, timeline media, assets' }),
  quota_bytes: Nullable(Type.Integer({ minimum: 0, description: 'Its quota in bytes; null: no limit' })),
  expiring: Type.Object(
    {
      tasks: Type.Integer({ minimum: 0 }),
      bytes: Bytes,
      next_at: Nullable(TimestampSchema),
    },
    {
      description:
        'Its tasks the retention sweeps delete within the next day as things stand (finished, in no project, last changed more than retention_days − 1 days ago), their bytes, and when the first is due (null: none)',
    },
  ),
});

/** The data disk as the service uses it: writes held back, retention, and each key's share against its quota. */
export const StorageStatusSchema = Type.Object(
  {
    pending_writes: Type.Integer({ description: 'Writes held in memory until the data disk has room again' }),
    database_locking: Type.String({ description: '`exclusive` after a start on a full disk' }),
    retention_days: Type.Integer({ minimum: 0, description: 'Days a finished task in no project is kept after its last change (0: forever)' }),
    quota_default_bytes: Nullable(Type.Integer({ minimum: 0, description: 'The quota of a key without its own; null: no limit' })),
    keys: Type.Array(KeyStorageSchema, { description: 'The calling key and the keys below it' }),
  },
  { $id: 'StorageStatus', description: 'The data disk: held writes, task retention, and storage per key' },
);

export type StorageStatus = Static<typeof StorageStatusSchema>;

export interface StorageStatusDeps {
  usage: StorageUsage;
  retention: TaskRetention;
  retentionDays: number;
  defaultQuotaMb: number;
  /** The caller's line of keys (itself and the keys below it). */
  lineOf: (keyId: string) => ApiKeyRecord[];
  /** The disk's own state: writes held back and the database's locking mode. */
  disk: () => Pick<StorageStatus, 'pending_writes' | 'database_locking'>;
}

/** The `storage` section of the system status, for the calling key. */
export async function storageStatus(deps: StorageStatusDeps, callerKeyId: string): Promise<StorageStatus> {
  const keys = deps.lineOf(callerKeyId);
  const used = await deps.usage.usedBytes(keys.map((key) => key.keyId));
  const expiring = deps.retention.expiring();
  return {
    ...deps.disk(),
    retention_days: deps.retentionDays,
    quota_default_bytes: quotaBytes({ storageQuotaMb: null }, deps.defaultQuotaMb),
    keys: keys.map((key) => ({
      key_id: key.keyId,
      name: key.name,
      used_bytes: used.get(key.keyId) ?? 0,
      quota_bytes: quotaBytes(key, deps.defaultQuotaMb),
      expiring: expiring.get(key.keyId) ?? { tasks: 0, bytes: 0, next_at: null },
    })),
  };
}
