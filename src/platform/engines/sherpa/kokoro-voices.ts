import type { Gender, VoiceInfo } from '../types.js';

/**
 * Kokoro-82M v1.0 voices in voices.bin order (= sherpa speaker id), from
 * shared/models/kokoro/SOURCE.md. A name's first letter is its language, the second its gender.
 */
export const KOKORO_VOICE_NAMES = `af_alloy af_aoede af_bella af_heart af_jessica af_kore af_nicole af_nova af_river
af_sarah af_sky am_adam am_echo am_eric am_fenrir am_liam am_michael am_onyx am_puck am_santa bf_alice bf_emma
bf_isabella bf_lily bm_daniel bm_fable bm_george bm_lewis ef_dora em_alex ff_siwis hf_alpha hf_beta hm_omega hm_psi
if_sara im_nicola jf_alpha jf_gongitsune jf_nezumi jf_tebukuro jm_kumo pf_dora pm_alex pm_santa zf_xiaobei zf_xiaoni
zf_xiaoxiao zf_xiaoyi zm_yunjian zm_yunxi zm_yunxia zm_yunyang`.split(/\s+/);

interface KokoroLanguage {
  tag: string;
  label: string;
  /**
   * The espeak-ng voice sherpa phonemizes with. Checked against Debian's espeak-ng-data 1.51:
   * `en-gb` and `fr-fr` fail there ("Failed to set eSpeak-ng voice"), `en-gb-x-rp` and `fr` work.
   * Mandarin text goes through the archive's lexicon-zh.txt; `cmn` routes it there.
   */
  espeak: string;
}

/**
 * The languages sherpa's multi-language Kokoro frontend speaks, by a voice name's first letter.
 * Japanese (`j`) is left out on purpose: the frontend sends every CJK ideograph run to the Chinese
 * lexicon whatever the language, and espeak converts only kana, so kanji would get Mandarin
 * readings without an error. Its five voices are therefore not offered.
 */
const LANGUAGES: Record<string, KokoroLanguage> = {
  a: { tag: 'en-US', label: 'US English', espeak: 'en-us' },
  b: { tag: 'en-GB', label: 'UK English', espeak: 'en-gb-x-rp' },
  e: { tag: 'es', label: 'Spanish', espeak: 'es' },
  f: { tag: 'fr', label: 'French', espeak: 'fr' },
  h: { tag: 'hi', label: 'Hindi', espeak: 'hi' },
  i: { tag: 'it', label: 'Italian', espeak: 'it' },
  p: { tag: 'pt-BR', label: 'Brazilian Portuguese', espeak: 'pt-br' },
  z: { tag: 'zh', label: 'Mandarin Chinese', espeak: 'cmn' },
};

/** Every language Kokoro can speak when the model folder has the files each one needs (KOKORO_LANGUAGE_FILES). */
export const KOKORO_LANGUAGES = Object.values(LANGUAGES).map((language) => language.tag);

/** The espeak code for a BCP-47 tag among `spoken` (case-insensitive), or undefined. */
export function espeakFor(tag: string, spoken: readonly string[]): string | undefined {
  const wanted = tag.toLowerCase();
  return Object.values(LANGUAGES).find((language) => language.tag.toLowerCase() === wanted && spoken.includes(language.tag))?.espeak;
}

export interface KokoroVoice {
  info: VoiceInfo;
  sid: number;
  espeak: string;
}

/** The voice at row `sid` of voices.bin, or undefined when its language is not among `spoken`. */
export function kokoroVoice(name: string, sid: number, sampleRate: number, spoken: readonly string[]): KokoroVoice | undefined {
  const language = LANGUAGES[name[0] ?? ''];
  if (!language || !spoken.includes(language.tag)) return undefined;
  const gender: Gender | null = name[1] === 'f' ? 'female' : name[1] === 'm' ? 'male' : null;
  const base = name.slice(name.indexOf('_') + 1);
  const title = base.charAt(0).toUpperCase() + base.slice(1);
  return {
    sid,
    espeak: language.espeak,
    info: {
      id: `kokoro:${name}`,
      engine: 'kokoro',
      name: `Kokoro ${title} (${language.label}${gender ? `, ${gender}` : ''})`,
      language: language.tag,
      languages: [language.tag],
      gender,
      sampleRate,
      license: 'Apache-2.0',
    },
  };
}
