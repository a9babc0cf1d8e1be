import { useEffect, useState } from 'preact/hooks';
import type { operations } from '../../../../src/client/schema.js';
import { api } from '../../api.js';
import type { CloneMethod } from './request.js';

type Engine = operations['getSystemInfo']['responses'][200]['content']['application/json']['engines'][number];

/** Whether a method can run here; `needs`: what it would take, in words, when it cannot. */
export interface MethodAvailability {
  available: boolean;
  needs?: string;
}

/**
 * Which engine each method needs, as the service's cloning methods decide it (src/features/cloning/methods.ts):
 * a zero-shot clone speaks through Pocket TTS or ZipVoice, a voice search blends Kokoro's voices, and a
 * timbre match starts from a built-in voice. The service still decides per language and answers
 * `clone_method_unavailable` with its reason, which the screen shows.
 */
const NEEDS: Record<CloneMethod, { engines: (engine: Engine) => boolean; words: string }> = {
  zero_shot: { engines: (engine) => engine.id === 'pocket-tts' || engine.id === 'zipvoice', words: 'needs the Pocket TTS or ZipVoice model installed' },
  voice_search: { engines: (engine) => engine.id === 'kokoro', words: 'needs the Kokoro model installed' },
  timbre_match: { engines: (engine) => engine.kind === 'tts' && !engine.neural, words: 'needs a built-in voice (npm run setup installs them)' },
};

export type Availability = Record<CloneMethod, MethodAvailability>;

export function availabilityOf(engines: readonly Engine[]): Availability {
  const of = (method: CloneMethod): MethodAvailability => {
    const available = engines.some((engine) => engine.available && NEEDS[method].engines(engine));
    return available ? { available } : { available, needs: NEEDS[method].words };
  };
  return { zero_shot: of('zero_shot'), voice_search: of('voice_search'), timbre_match: of('timbre_match') };
}

/**
 * The methods this machine can run, from the installed engines (GET /api/system/info); undefined
 * while unknown, and left unknown when the key may not read system information: then every method
 * is offered and the service says which cannot run.
 */
export function useMethodAvailability(): Availability | undefined {
  const [availability, setAvailability] = useState<Availability>();
  useEffect(() => {
    void api
      .GET('/api/system/info')
      .then(({ data }) => (data ? setAvailability(availabilityOf(data.engines)) : undefined))
      .catch(() => undefined);
  }, []);
  return availability;
}
