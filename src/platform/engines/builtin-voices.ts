import type { Gender, VoiceInfo } from './types.js';
import type { EngineId } from './engine-ids.js';

/**
 * The catalog of built-in voices: human names, languages, genders, native rates and licenses.
 * Engines list a catalog entry only when its program says the voice is installed.
 * Licenses are those of the voice data (and lexicons it needs), from /usr/share/doc/<pkg>/copyright.
 */

export interface VoiceEntry {
  name: string;
  /** BCP-47. */
  language: string;
  gender: Gender | null;
  sampleRate: number;
  license: string;
  description: string;
}

export const LICENSES = {
  pico: 'Apache-2.0',
  espeak: 'GPL-3.0-or-later',
  mbrola: 'MBROLA license: non-commercial use only, may not be sold or included in a sold product without permission',
  mbrolaEn1: 'MBROLA en1 license: for use with MBROLA only; Edinburgh BSD-style terms, free copying with notice',
  cmu: 'BSD-style (CMU/Edinburgh): free to use, modify, distribute and sell',
  slt: 'BSD-3-Clause (CMU ARCTIC / HTS, EST-2000/2003)',
  oald: 'Non-commercial use only: the voice is BSD-style but needs the OALD lexicon (festlex-oald), which is non-commercial',
  mbrolaOald: 'Non-commercial use only: MBROLA en1 database (for use with MBROLA only) and the non-commercial OALD lexicon',
  ellpc: 'Non-commercial use only without permission (festvox-ellpc11k)',
  italian: 'GPL-2.0-or-later',
  openjtalk:
    'CC-BY-3.0 voice (attribution: Nagoya Institute of Technology and Tokyo Institute of Technology); Open JTalk and its NAIST-jdic dictionary BSD-3-Clause',
} as const;

/** The catalog's voices among the names an engine says are installed. */
export function installedVoices(engine: EngineId, catalog: Record<string, VoiceEntry>, installed: Iterable<string>): VoiceInfo[] {
  const names = new Set(installed);
  return Object.entries(catalog)
    .filter(([name]) => names.has(name))
    .map(([name, entry]) => voiceInfo(engine, name, entry));
}

export function voiceInfo(engine: EngineId, voiceName: string, entry: VoiceEntry): VoiceInfo {
  return {
    id: `${engine}:${voiceName}`,
    engine,
    name: entry.name,
    language: entry.language,
    languages: [entry.language],
    gender: entry.gender,
    sampleRate: entry.sampleRate,
    license: entry.license,
    description: entry.description,
  };
}

function pico(language: string, label: string): VoiceEntry {
  return {
    name: `Pico ${label} (female)`,
    language,
    gender: 'female',
    sampleRate: 16000,
    license: LICENSES.pico,
    description: `SVOX Pico ${label} voice: clear, compact unit-selection voice; no timings.`,
  };
}

export const PICO_VOICES: Readonly<Record<string, VoiceEntry>> = {
  'en-US': pico('en-US', 'US English'),
  'en-GB': pico('en-GB', 'British English'),
  'de-DE': pico('de-DE', 'German'),
  'es-ES': pico('es-ES', 'Spanish'),
  'fr-FR': pico('fr-FR', 'French'),
  'it-IT': pico('it-IT', 'Italian'),
};

/** Most MBROLA databases are 16 kHz; a few (es2, fr4) were recorded at 22050 Hz. */
function mbrola(
  language: string,
  label: string,
  gender: Gender,
  { sampleRate = 16000, license = LICENSES.mbrola }: { sampleRate?: number; license?: string } = {},
): VoiceEntry {
  return {
    name: `MBROLA ${label} (${gender})`,
    language,
    gender,
    sampleRate,
    license,
    description: 'eSpeak NG driving an MBROLA diphone database: more natural than the formant voices; phoneme timings.',
  };
}

/** Keyed by MBROLA database id; eSpeak NG names the voice `mb-<id>`. */
export const MBROLA_VOICES: Readonly<Record<string, VoiceEntry>> = {
  us1: mbrola('en-US', 'US English 1', 'female'),
  us2: mbrola('en-US', 'US English 2', 'male'),
  us3: mbrola('en-US', 'US English 3', 'male'),
  en1: mbrola('en-GB', 'British English', 'male', { license: LICENSES.mbrolaEn1 }),
  de1: mbrola('de-DE', 'German 1', 'female'),
  de2: mbrola('de-DE', 'German 2', 'male'),
  fr1: mbrola('fr-FR', 'French 1', 'male'),
  fr4: mbrola('fr-FR', 'French 4', 'female', { sampleRate: 22050 }),
  es1: mbrola('es-ES', 'Spanish 1', 'male'),
  es2: mbrola('es-ES', 'Spanish 2', 'male', { sampleRate: 22050 }),
  it3: mbrola('it-IT', 'Italian 3', 'male'),
  it4: mbrola('it-IT', 'Italian 4', 'female'),
};

/**
 * The plain (formant) eSpeak NG voices offered: one per language, keyed by eSpeak's language
 * name, for widely used languages. eSpeak knows ~130; the rest are rarely wanted and untested.
 */
export const ESPEAK_LANGUAGES: Readonly<Record<string, { language: string; label: string }>> = {
  'en-us': { language: 'en-US', label: 'US English' },
  de: { language: 'de', label: 'German' },
  'fr-fr': { language: 'fr-FR', label: 'French' },
  es: { language: 'es-ES', label: 'Spanish' },
  it: { language: 'it', label: 'Italian' },
  'pt-br': { language: 'pt-BR', label: 'Brazilian Portuguese' },
  nl: { language: 'nl', label: 'Dutch' },
  sv: { language: 'sv', label: 'Swedish' },
  da: { language: 'da', label: 'Danish' },
  nb: { language: 'nb', label: 'Norwegian Bokmål' },
  fi: { language: 'fi', label: 'Finnish' },
  pl: { language: 'pl', label: 'Polish' },
  cs: { language: 'cs', label: 'Czech' },
  sk: { language: 'sk', label: 'Slovak' },
  hu: { language: 'hu', label: 'Hungarian' },
  ro: { language: 'ro', label: 'Romanian' },
  hr: { language: 'hr', label: 'Croatian' },
  bg: { language: 'bg', label: 'Bulgarian' },
  ru: { language: 'ru', label: 'Russian' },
  uk: { language: 'uk', label: 'Ukrainian' },
  el: { language: 'el', label: 'Greek' },
  tr: { language: 'tr', label: 'Turkish' },
  ar: { language: 'ar', label: 'Arabic' },
  he: { language: 'he', label: 'Hebrew' },
  hi: { language: 'hi', label: 'Hindi' },
  cmn: { language: 'zh', label: 'Mandarin Chinese' },
  ko: { language: 'ko', label: 'Korean' },
  vi: { language: 'vi', label: 'Vietnamese' },
  id: { language: 'id', label: 'Indonesian' },
  ca: { language: 'ca', label: 'Catalan' },
};

export function espeakEntry(language: string, label: string, gender: Gender | null): VoiceEntry {
  return {
    name: `eSpeak NG ${label}${gender ? ` (${gender})` : ''}`,
    language,
    gender,
    sampleRate: 22050,
    license: LICENSES.espeak,
    description: 'eSpeak NG formant voice: robotic but very fast and intelligible at high speed.',
  };
}

function festival(name: string, language: string, gender: Gender, sampleRate: number, license: string, description: string): VoiceEntry {
  return { name: `Festival ${name} (${gender})`, language, gender, sampleRate, license, description };
}

/** Keyed by Festival voice name (`voice_<name>` selects it). */
export const FESTIVAL_VOICES: Readonly<Record<string, VoiceEntry>> = {
  cmu_us_slt_arctic_hts: festival(
    'SLT',
    'en-US',
    'female',
    32000,
    LICENSES.slt,
    'CMU ARCTIC SLT, HTS statistical voice: the most natural built-in English voice; word timings.',
  ),
  kal_diphone: festival('Kal', 'en-US', 'male', 16000, LICENSES.cmu, 'CMU Kal diphone voice, very intelligible; word timings.'),
  ked_diphone: festival('Ked', 'en-US', 'male', 16000, LICENSES.cmu, 'CMU Ked diphone voice; word timings.'),
  rab_diphone: festival('Rab', 'en-GB', 'male', 16000, LICENSES.oald, 'Edinburgh Rab diphone voice, British; word timings.'),
  don_diphone: festival('Don', 'en-GB', 'male', 10000, LICENSES.oald, 'Minimal British diphone voice at 10 kHz, hard to understand; word timings.'),
  us1_mbrola: festival('US1 MBROLA', 'en-US', 'female', 16000, LICENSES.mbrola, 'Festival with the MBROLA us1 database; word timings.'),
  us2_mbrola: festival('US2 MBROLA', 'en-US', 'male', 16000, LICENSES.mbrola, 'Festival with the MBROLA us2 database; word timings.'),
  us3_mbrola: festival('US3 MBROLA', 'en-US', 'male', 16000, LICENSES.mbrola, 'Festival with the MBROLA us3 database; word timings.'),
  en1_mbrola: festival('EN1 MBROLA', 'en-GB', 'male', 16000, LICENSES.mbrolaOald, 'Festival with the MBROLA en1 database, British; word timings.'),
  el_diphone: festival('El', 'es-ES', 'male', 11025, LICENSES.ellpc, 'Castilian Spanish diphone voice at 11 kHz; word timings.'),
  lp_diphone: festival('Lp', 'it-IT', 'female', 16000, LICENSES.italian, 'Italian diphone voice; word timings.'),
  pc_diphone: festival('Pc', 'it-IT', 'male', 16000, LICENSES.italian, 'Italian diphone voice; word timings.'),
};

function flite(name: string, language: string, gender: Gender, description: string): VoiceEntry {
  return { name: `Flite ${name} (${gender})`, language, gender, sampleRate: 16000, license: LICENSES.cmu, description };
}

/** Keyed by Flite voice name. `kal` (8 kHz) and `awb_time` (speaks only clock times) are left out. */
export const FLITE_VOICES: Readonly<Record<string, VoiceEntry>> = {
  slt: flite('SLT', 'en-US', 'female', 'CMU ARCTIC SLT, clustergen statistical voice; word and phoneme timings.'),
  rms: flite('RMS', 'en-US', 'male', 'CMU ARCTIC RMS, clustergen statistical voice; word and phoneme timings.'),
  awb: flite('AWB', 'en-GB', 'male', 'CMU ARCTIC AWB, Scottish English, clustergen statistical voice; word and phoneme timings.'),
  kal16: flite('Kal', 'en-US', 'male', 'CMU Kal diphone voice at 16 kHz, very intelligible; word and phoneme timings.'),
};

/**
 * Keyed by HTS voice name. The .htsvoice sets the rate (SAMPLING_FREQUENCY:48000, 5 ms frames) and
 * open_jtalk writes what the voice sets.
 */
export const OPENJTALK_VOICES: Readonly<Record<string, VoiceEntry>> = {
  'nitech-jp-atr503-m001': {
    name: 'Open JTalk Nitech M001 (male)',
    language: 'ja-JP',
    gender: 'male',
    sampleRate: 48000,
    license: LICENSES.openjtalk,
    description: 'Nagoya Institute of Technology HTS voice of speaker M001 reading the ATR 503 sentences: standard Japanese; phoneme timings.',
  },
};
