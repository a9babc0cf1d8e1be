import type { KeyService } from '../features/access/index.js';
import { FileSizes, storageStatus, StorageUsage, takeAndMediaFiles, TaskRetention } from '../features/storage/index.js';
import { TaskRemoval } from '../features/tasks/index.js';
import type { Platform } from './platform.js';

/** What keeps the data directory bounded: task deletion, file sizes and usage per key, the retention sweep. */
export interface StorageServices {
  /** Deletes tasks with their rows and files; projects use it to delete the tasks filed in them. */
  removal: TaskRemoval;
  usage: StorageUsage;
  retention: TaskRetention;
  /** Measures files an older data directory recorded without sizes, then sweeps expired tasks; hourly after. */
  start(): Promise<void>;
  stop(): void;
}

export function storageServices({ config, db, log }: Platform): StorageServices {
  const removal = new TaskRemoval({ db, dataDir: config.dataDir, log });
  for (const describe of takeAndMediaFiles(db)) removal.describeFiles(describe);
  const sizes = new FileSizes(db, config.dataDir, log);
  const retention = new TaskRetention({ db, removal, retentionDays: config.taskRetentionDays, log });
  return {
    removal,
    usage: new StorageUsage(db, sizes),
    retention,
    start: async () => {
      await retention.start();
      // In the background: a large older data directory is measured a batch at a time while requests run.
      void sizes.measureAll().catch((error: unknown) => log.warn({ err: error }, 'measuring stored files failed'));
    },
    stop: () => retention.stop(),
  };
}

/** The system status's `storage` section: held writes, retention, and the calling key's line with usage and quotas. */
export function storageStatusSection({ config, db, kept }: Platform, storage: StorageServices, keys: KeyService) {
  return (callerKeyId: string) =>
    storageStatus(
      {
        usage: storage.usage,
        retention: storage.retention,
        retentionDays: config.taskRetentionDays,
        defaultQuotaMb: config.storageQuotaMb,
        lineOf: (keyId) => keys.list(keys.get(keyId)),
        disk: () => ({
          // Writes waiting in memory for the data disk to have room again (job ends, task states).
          pending_writes: kept.size,
          // `exclusive` after a start on a full disk: the `timbre keys` commands wait until the next start.
          database_locking: String(db.pragma('locking_mode', { simple: true })),
        }),
      },
      callerKeyId,
    );
}
