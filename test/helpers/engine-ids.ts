import { isEngineId, type EngineId } from '../../src/platform/engines/engine-ids.js';

/** The engine of a voice id (`<engine>:<name>`), which a test names with an engine of this build. */
export function engineOf(voiceId: string): EngineId {
  const engine = voiceId.split(':')[0] ?? '';
  if (!isEngineId(engine)) throw new Error(`${voiceId} names no engine of this build`);
  return engine;
}
