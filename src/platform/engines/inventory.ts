import type { EngineId } from './engine-ids.js';
import { engineDescriptors } from './registry.js';
import { installedModels } from '../models/manager.js';
import type { EngineClient } from './host/calls.js';

/**
 * What `/api/system/info` lists: every engine with whether it can run (and why not), as the engine
 * client sees it: probes of this machine's files, or the live workers' announcements. Nothing
 * native loads in the server process. Models are this machine's.
 */
export async function engineInventory(engines: Pick<EngineClient, 'available'>, modelsDir: string) {
  const listed = await Promise.all(
    engineDescriptors(modelsDir).map(async ({ id, kind, neural }) => {
      const availability = await engines.available(id);
      return { id, kind, neural, available: availability.available, reason: availability.reason ?? null };
    }),
  );
  return { engines: listed, models: await installedModels(modelsDir) };
}

/** Whether an engine can run now (a cheap check: files and binaries, or live workers; no native load). */
export async function engineAvailable(engines: Pick<EngineClient, 'available'>, id: EngineId): Promise<boolean> {
  return (await engines.available(id)).available;
}
