import type { Config } from '../config.js';
import { ApiKeyRepository } from '../store/api-key-repository.js';
import { describeDatabase, openDatabase, type Db } from '../store/database.js';
import { EventBus } from './events.js';
import { KeyService } from './keys.js';
import { SystemService } from './system.js';

export interface Services {
  db: Db;
  events: EventBus;
  keys: KeyService;
  system: SystemService;
  close(): void;
}

/** The composition root: opens the store and wires every service to its repositories. */
export function createServices(config: Config): Services {
  const db = openDatabase(config.dataDir);
  const events = new EventBus();
  const keys = new KeyService(new ApiKeyRepository(db), events);
  const system = new SystemService({ dataDir: config.dataDir, database: () => describeDatabase(db), startedAt: new Date() });
  return {
    db,
    events,
    keys,
    system,
    close: () => db.close(),
  };
}
