import { ApiError } from '../errors.js';
import type { EngineId } from '../engines/engine-ids.js';
import { loadLanguageDetector, preferredLanguage } from '../text/detect-language.js';
import { primaryLanguage } from '../text/language-tag.js';

export type VoiceType = 'preset' | 'clone' | 'design';

/** What speaking needs to know of a voice. */
export interface SpeakingVoice {
  id: string;
  type: VoiceType;
  engine: EngineId;
  engineVoice: string;
  language: string;
  languages: string[];
  gender?: 'female' | 'male' | null;
  /** False for a preset whose engine or voice is no longer installed. */
  available: boolean;
  /** Clones and designs keep how they speak here (see voice-rendering.ts). */
  settings: Record<string, unknown>;
}

/** `en` speaks `en-US`; `en-US` speaks `en` and `en-US`, but not `en-GB`. */
export function speaksLanguage(voice: Pick<SpeakingVoice, 'language' | 'languages'>, language: string): boolean {
  const wanted = language.toLowerCase();
  const primary = wanted.split('-')[0];
  return [voice.language, ...voice.languages].some((candidate) => {
    const tag = candidate.toLowerCase();
    return tag === wanted || tag === primary || (!wanted.includes('-') && tag.split('-')[0] === primary);
  });
}

export function assertUsable(voice: SpeakingVoice): void {
  if (!voice.available) {
    throw new ApiError(503, 'voice_unavailable', `The engine of voice ${voice.id} is not installed on this machine`, {
      voice_id: voice.id,
      engine: voice.engine,
    });
  }
}

export function assertSpeaks(voice: SpeakingVoice, language: string): void {
  if (speaksLanguage(voice, language)) return;
  throw new ApiError(422, 'language_not_supported', `Voice ${voice.id} cannot speak ${language}`, {
    voice_id: voice.id,
    language,
    voice_languages: [voice.language, ...voice.languages],
  });
}

/** The voice's own tag for a language it speaks (`en` → `en-GB` for a British voice), else the language as given. */
export function languageTagFor(voice: { language: string; languages: readonly string[] }, language: string): string {
  const wanted = primaryLanguage(language);
  return [voice.language, ...voice.languages].find((tag) => primaryLanguage(tag) === wanted) ?? language;
}

/**
 * The language a voice speaks `text` in: the one the client stated, which the voice must speak
 * (else 422 `language_not_supported`); without one, the voice's own language, or another of its
 * languages only when the text is confidently in it (see `preferredLanguage`), as the voice tags it.
 */
export async function speakingLanguage(voice: SpeakingVoice, text: string, stated?: string): Promise<string> {
  if (stated !== undefined) {
    assertSpeaks(voice, stated);
    return stated;
  }
  const languages = [voice.language, ...voice.languages];
  if (new Set(languages.map(primaryLanguage)).size <= 1) return voice.language;
  await loadLanguageDetector();
  return languageTagFor(voice, preferredLanguage(text, { preferred: voice.language, candidates: languages }));
}
