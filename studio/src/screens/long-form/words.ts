import type { Schemas } from '../../api.js';
import { voiceName } from './voice-select.js';

/** How many words of a text name it where a title is needed. */
const TITLE_WORDS = 8;

/** A text's first words, for naming it ("Welcome back to the studio. Today we…"). */
export function firstWords(text: string, count = TITLE_WORDS): string {
  const words = text.trim().split(/\s+/);
  return words.length > count ? `${words.slice(0, count).join(' ')}…` : words.join(' ');
}

/** "1 sentence", "12 sentences". */
export const sentences = (count: number) => `${count} ${count === 1 ? 'sentence' : 'sentences'}`;

const STAND_IN = 'preset:';

/**
 * Who speaks a chunk when it is not its own voice: the service routes a sentence whose language the
 * chosen voice cannot speak to a preset of that language (`preset:<voice id>`). Undefined for the voice itself.
 */
export function standInWords(chunk: Pick<Schemas['Chunk'], 'route' | 'language'>, voices: Schemas['Voice'][]): string | undefined {
  if (!chunk.route.startsWith(STAND_IN)) return undefined;
  const standIn = voiceName(voices, chunk.route.slice(STAND_IN.length));
  return `Spoken by ${standIn} (the chosen voice does not speak ${chunk.language})`;
}
