/**
 * The engine ids this build knows, in one place: the engine descriptors, their capabilities and the
 * voices they list carry one of them, and the registry keeps a factory for every neural one. An id
 * that comes from outside (a request, a catalog entry, a voice archive) is checked with
 * `isEngineId` or `EngineIdSchema` where it comes in. Apart from registry.ts so that types.ts can
 * use the type; free of imports so that settings and the engine host load nothing with it (the
 * payload schema, which needs typebox, is engine-id-schema.ts).
 */

/** The synthesizers from Debian packages: on every machine after set-up (and what built-in clones start from). */
export const BUILTIN_SYNTHESIZER_IDS = ['pico', 'espeak', 'festival', 'flite', 'openjtalk', 'rhvoice'] as const;

/** The engines from Debian packages and the acoustic printers: no model files. */
export const BUILTIN_ENGINE_IDS = [...BUILTIN_SYNTHESIZER_IDS, 'pocketsphinx', 'acoustic-voiceprint', 'acoustic-check'] as const;

/** The sherpa-onnx engine families, each run from a catalog model. */
export const NEURAL_ENGINE_IDS = ['kokoro', 'kitten', 'pocket-tts', 'zipvoice', 'vits', 'whisper', 'moonshine', 'speaker-embedding', 'silero-vad'] as const;

export const ENGINE_IDS = [...BUILTIN_ENGINE_IDS, ...NEURAL_ENGINE_IDS] as const;

export type BuiltinEngineId = (typeof BUILTIN_ENGINE_IDS)[number];
export type NeuralEngineId = (typeof NEURAL_ENGINE_IDS)[number];
export type EngineId = (typeof ENGINE_IDS)[number];

export function isEngineId(value: string): value is EngineId {
  return ENGINE_IDS.some((id) => id === value);
}

export function isNeuralEngineId(value: string): value is NeuralEngineId {
  return NEURAL_ENGINE_IDS.some((id) => id === value);
}
