import type { EngineId } from '../engines/engine-ids.js';

/**
 * Synthesizers by how clearly they speak, clearest first: the neural engines when installed, then
 * the clearest built-in (RHVoice: word error rates of 0–0.05 where Pico measures 0.23, see
 * docs/cloning.md), Pico, Flite's and Festival's voices, Open JTalk for Japanese, then eSpeak NG,
 * which speaks the most languages least naturally. OpenAI's model ids resolve to the first
 * installed, and the voice list puts voices in this order by default.
 */
export const ENGINES_BY_CLARITY = [
  'kokoro',
  'kitten',
  'vits',
  'rhvoice',
  'pico',
  'flite',
  'festival',
  'openjtalk',
  'espeak',
] as const satisfies readonly EngineId[];
