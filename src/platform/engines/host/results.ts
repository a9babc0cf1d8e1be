import type { EngineMethod, EngineResult } from './calls.js';

/**
 * What comes back from a host process is checked for the shape of the called method's result
 * before a service sees it: a host answering something else fails the call instead of passing it on.
 */
type ResultGuards = { [M in EngineMethod]: (value: unknown) => value is EngineResult<M> };

export const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;
export const isPcm = (value: unknown) => isObject(value) && value.samples instanceof Float32Array && typeof value.sampleRate === 'number';
const isSpan = (value: unknown): value is Record<string, unknown> => isObject(value) && typeof value.start === 'number' && typeof value.end === 'number';
const isProbability = (value: unknown) => value === null || (typeof value === 'number' && value >= 0 && value <= 1);
const isRecognizedWord = (value: unknown) => isSpan(value) && typeof value.word === 'string' && isProbability(value.probability);
const isSegment = (value: unknown) => isSpan(value) && Array.isArray(value.words) && value.words.every(isRecognizedWord);

const GUARDS: ResultGuards = {
  capabilities: (value): value is EngineResult<'capabilities'> => isObject(value) && typeof value.engine === 'string' && Array.isArray(value.languages),
  listVoices: (value): value is EngineResult<'listVoices'> => Array.isArray(value) && value.every((voice) => isObject(voice) && typeof voice.id === 'string'),
  voiceVector: (value): value is Float32Array => value instanceof Float32Array,
  synthesize: (value): value is EngineResult<'synthesize'> => isObject(value) && isPcm(value.pcm),
  recognize: (value): value is EngineResult<'recognize'> =>
    isObject(value) && typeof value.text === 'string' && Array.isArray(value.segments) && value.segments.every(isSegment),
  extract: (value): value is EngineResult<'extract'> => isObject(value) && typeof value.method === 'string' && value.vector instanceof Float32Array,
  similarity: (value): value is number => typeof value === 'number',
  analyse: (value): value is EngineResult<'analyse'> => isObject(value) && typeof value.durationSeconds === 'number' && isObject(value.pitch),
  detect: (value): value is EngineResult<'detect'> => Array.isArray(value) && value.every(isSpan),
};

export function isResultOf<M extends EngineMethod>(method: M, value: unknown): value is EngineResult<M> {
  const guard: ResultGuards[M] = GUARDS[method];
  return guard(value);
}
