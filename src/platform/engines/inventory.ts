import { engineDescriptors } from './registry.js';
import { installedModels } from '../models/manager.js';
import type { EngineId } from './engine-ids.js';

/**
 * What `/api/system/info` lists: every engine with whether it can run here (and why not), and
 * the installed model folders. Probes read files only; nothing native loads in the server process.
 */
export async function engineInventory(modelsDir: string) {
  const engines = await Promise.all(
    engineDescriptors(modelsDir).map(async (descriptor) => {
      const availability = await descriptor.probe().catch((error: Error) => ({ available: false, reason: error.message }));
      return {
        id: descriptor.id,
        kind: descriptor.kind,
        neural: descriptor.neural,
        available: availability.available,
        reason: availability.reason ?? null,
      };
    }),
  );
  return { engines, models: await installedModels(modelsDir) };
}

/** Whether an engine can run here now (a cheap probe: files and binaries, no native load). */
export async function engineAvailable(modelsDir: string, id: EngineId): Promise<boolean> {
  const descriptor = engineDescriptors(modelsDir).find((candidate) => candidate.id === id);
  if (!descriptor) return false;
  return (await descriptor.probe().catch(() => ({ available: false }))).available;
}
