import { ApiError, invalidField } from '../../platform/errors.js';
import { LANGUAGE_TAG } from '../../platform/http/schemas.js';
import { languageTagFor } from '../../platform/speech/speech.js';
import { loadLanguageDetector, preferredLanguage } from '../../platform/text/detect-language.js';
import { primaryLanguage } from '../../platform/text/language-tag.js';
import type { VoiceService } from '../voices/index.js';

/** `voice` of a Wyoming `synthesize` or `synthesize-start`; `speaker` has no meaning here (a Timbre voice id is one speaker). */
export interface RequestedVoice {
  name?: string;
  language?: string;
}

/** The voice a text is spoken with, and how. */
export interface ChosenVoice {
  voiceId: string;
  /** The language to speak in, when one was asked for; the voice's own (or detected among its languages) otherwise. */
  language?: string;
  /** The voice's own language, which its text is split into sentences by. */
  voiceLanguage: string;
}

type Voices = Pick<VoiceService, 'get' | 'list'>;

/** What is answered when nothing says otherwise: Home Assistant's default pipelines are English. */
const DEFAULT_LANGUAGE = 'en';
const PAGE = 100;

/** A language as Wyoming clients write it (`en_US` as Piper's voices do, or BCP 47), as a BCP 47 tag. */
export function wyomingLanguage(language: string, field: string): string {
  const tag = language.replace(/_/g, '-');
  if (!LANGUAGE_TAG.test(tag)) throw invalidField(field, 'must be a language code such as en or en-US');
  return tag;
}

/**
 * The voice for a request: the named one (a Timbre voice id; the language then is the voice's
 * business, as Wyoming's name overrides its language); else the clearest installed voice of the
 * language asked for; else of the text's language, English unless the text is confidently in
 * another (as OpenAI's voice names pick theirs).
 */
export async function chooseVoice(voices: Voices, requested: RequestedVoice | undefined, text: string): Promise<ChosenVoice> {
  if (requested?.name) {
    const voice = await voices.get(requested.name);
    return { voiceId: voice.id, voiceLanguage: voice.language };
  }
  if (requested?.language) {
    const language = wyomingLanguage(requested.language, 'voice.language');
    const voice = (await clearestVoice(voices, language)) ?? (await clearestVoice(voices, primaryLanguage(language)));
    if (!voice) throw new ApiError(422, 'language_not_supported', `No installed voice speaks ${language}`, { language });
    return { voiceId: voice.id, language: languageTagFor(voice, language), voiceLanguage: voice.language };
  }
  await loadLanguageDetector();
  const detected = preferredLanguage(text, { preferred: DEFAULT_LANGUAGE, candidates: [] });
  const voice = (await clearestVoice(voices, detected)) ?? (await clearestVoice(voices, DEFAULT_LANGUAGE)) ?? (await clearestVoice(voices, undefined));
  if (!voice) throw new ApiError(503, 'no_voice_installed', 'No voice can speak here: install an engine (npm run setup)');
  return { voiceId: voice.id, voiceLanguage: voice.language };
}

/**
 * The clearest preset that can speak now in `language` (any when undefined), in the library's
 * default order (measured clear first, then by engine clarity: library-sql.ts CLEAREST_FIRST).
 * Presets only: a user's clone is theirs to choose by name.
 */
async function clearestVoice(voices: Voices, language: string | undefined) {
  for (let offset = 0; ; offset += PAGE) {
    const page = await voices.list({ type: 'preset', language, sort: 'quality', limit: PAGE, offset });
    const available = page.voices.find((voice) => voice.available);
    if (available) return available;
    if (page.voices.length < PAGE) return undefined;
  }
}
