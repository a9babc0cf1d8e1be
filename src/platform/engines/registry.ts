import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { catalog, type CatalogModel } from '../models/catalog.js';
import { espeakEngine } from './espeak.js';
import { festivalEngine } from './festival.js';
import { fliteEngine } from './flite.js';
import { openjtalkEngine } from './openjtalk.js';
import { picoEngine } from './pico.js';
import { pocketsphinxEngine } from './pocketsphinx.js';
import { rhvoiceEngine } from './rhvoice.js';
import { createKittenEngine } from './sherpa/kitten.js';
import { createKokoroEngine } from './sherpa/kokoro.js';
import { createMoonshineEngine } from './sherpa/moonshine.js';
import { createPocketTtsEngine } from './sherpa/pocket-tts.js';
import { createSileroVadEngine } from './sherpa/silero-vad.js';
import { createSpeakerEmbeddingEngine } from './sherpa/speaker-embedding.js';
import { createVitsEngine } from './sherpa/vits.js';
import { createWhisperEngine } from './sherpa/whisper.js';
import { createZipVoiceEngine } from './sherpa/zipvoice.js';
import { isNeuralEngineId, NEURAL_ENGINE_IDS, type EngineId, type NeuralEngineId } from './engine-ids.js';
import type { Availability, EngineDescriptor } from './types.js';
import { acousticVoiceprintEngine } from './voiceprint.js';
import { acousticCheckEngine } from './voiceprint-check.js';

/** The built-in engines from Debian packages: they work on every machine after set-up. */
export const BUILTIN_ENGINES: readonly EngineDescriptor[] = [
  picoEngine,
  espeakEngine,
  festivalEngine,
  fliteEngine,
  openjtalkEngine,
  rhvoiceEngine,
  pocketsphinxEngine,
  acousticVoiceprintEngine,
  acousticCheckEngine,
];

/** The factory of every neural family, bound to a model folder when the registry lists it. */
const NEURAL_FACTORIES: Record<NeuralEngineId, (modelDir: string) => EngineDescriptor> = {
  kokoro: createKokoroEngine,
  kitten: createKittenEngine,
  'pocket-tts': createPocketTtsEngine,
  zipvoice: createZipVoiceEngine,
  vits: createVitsEngine,
  whisper: createWhisperEngine,
  moonshine: createMoonshineEngine,
  'speaker-embedding': createSpeakerEmbeddingEngine,
  'silero-vad': createSileroVadEngine,
};

/**
 * The neural engine of each family we can run, bound to its model folder: the first catalog model
 * of the family that is installed, else the first one (whose probe then says what is missing).
 */
function neuralEngines(modelsDir: string): EngineDescriptor[] {
  return NEURAL_ENGINE_IDS.flatMap((family) => {
    const models = catalog().filter((model) => model.engine === family);
    const create = NEURAL_FACTORIES[family];
    const chosen = models.find((model) => existsSync(join(modelsDir, model.name))) ?? models[0];
    return chosen ? [create(join(modelsDir, chosen.name))] : [];
  });
}

/** Every engine this build knows; probing tells which of them can run here. */
export function engineDescriptors(modelsDir: string): EngineDescriptor[] {
  return [...BUILTIN_ENGINES, ...neuralEngines(modelsDir)];
}

/** Whether an engine can run on this machine (binaries and model files, no native load), and why not. */
export async function probeEngine(modelsDir: string, id: EngineId): Promise<Availability> {
  const descriptor = engineDescriptors(modelsDir).find((candidate) => candidate.id === id);
  if (!descriptor) return { available: false, reason: `No ${id} model is in the catalog` };
  return descriptor.probe().catch((error: Error) => ({ available: false, reason: error.message }));
}

/**
 * Whether the engine of a catalog model can load the folder `dir` (its files, metadata and tensor
 * names, checked without native code): the reason it cannot, or undefined. Models of engines this
 * build does not know are not checked.
 */
export async function modelLoads(model: CatalogModel, dir: string): Promise<string | undefined> {
  if (!isNeuralEngineId(model.engine)) return undefined;
  const availability = await NEURAL_FACTORIES[model.engine](dir).probe();
  return availability.available ? undefined : availability.reason;
}
