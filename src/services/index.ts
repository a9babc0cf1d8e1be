import type { Config } from '../config.js';
import { EngineHost } from '../engines/host/supervisor.js';
import { ApiKeyRepository } from '../store/api-key-repository.js';
import { describeDatabase, openDatabase, type Db } from '../store/database.js';
import { engineInventory } from './engine-inventory.js';
import { EventBus } from './events.js';
import { KeyService } from './keys.js';
import { SystemService } from './system.js';

export interface Services {
  db: Db;
  events: EventBus;
  keys: KeyService;
  system: SystemService;
  engines: EngineHost;
  close(): Promise<void>;
}

/** The composition root: opens the store and wires every service to its repositories. */
export function createServices(config: Config): Services {
  const db = openDatabase(config.dataDir);
  const events = new EventBus();
  const keys = new KeyService(new ApiKeyRepository(db), events);
  const system = new SystemService({ dataDir: config.dataDir, database: () => describeDatabase(db), startedAt: new Date() });
  // Host processes start with the first engine job, so the CLI and an idle service pay nothing.
  const engines = new EngineHost({
    modelsDir: config.modelsDir,
    poolSize: config.enginePoolSize,
    jobTimeoutMs: config.engineTimeoutSeconds * 1000,
    idleUnloadSeconds: config.engineIdleSeconds,
    memoryLimitBytes: config.engineMemoryMb * 1024 * 1024,
    cancelGraceMs: 2000,
  });
  system.registerStatusSection('engine_host', () => engines.status());
  system.registerInventory(() => engineInventory(config.modelsDir));
  return {
    db,
    events,
    keys,
    system,
    engines,
    close: async () => {
      await engines.close();
      db.close();
    },
  };
}
