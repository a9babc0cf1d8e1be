import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createBuiltinSynthesizer, type BuiltinOptions, type PieceJob } from './builtin-common.js';
import type { Availability, EngineCapabilities, EngineDescriptor, Gender, SynthesisResult, Synthesizer, VoiceInfo, WordTiming } from './types.js';
import { floatFromInt16 } from '../audio/wav.js';
import { asciiFold } from '../text/ascii-fold.js';
import { wordOf } from './native/espeak-events.js';
import { SessionHold, SharedSession, probeLibrary } from './native/library.js';
import { RHVOICE_DATA, RHVOICE_LIBRARY, RHVOICE_PACKAGE, RhvoiceSession, type RhvoiceVoice, type RhvoiceWord } from './native/librhvoice.js';
import { primaryLanguage } from '../text/language-tag.js';

/**
 * RHVoice: statistical parametric (HTS) voices, among the most intelligible of the built-in
 * engines, for English and the languages of the Debian `rhvoice-*` packages. It runs in this
 * process through libRHVoice, its voices loaded once and kept warm.
 */

/** Where Debian describes the licenses of every RHVoice voice (one source package builds them all). */
const COPYRIGHT = '/usr/share/doc/librhvoice5/copyright';
/** The languages of Debian's rhvoice-* packages, as their voices report them (language-country). */
const LANGUAGES = ['en-US', 'ru-RU', 'uk-UA', 'pt-BR', 'pl-PL', 'mk-MK', 'sq-AL', 'eo', 'ky-KG', 'tt-RU'];
const LANGUAGE_NAMES: Readonly<Record<string, string>> = {
  en: 'English',
  ru: 'Russian',
  uk: 'Ukrainian',
  pt: 'Portuguese',
  pl: 'Polish',
  mk: 'Macedonian',
  sq: 'Albanian',
  eo: 'Esperanto',
  ky: 'Kyrgyz',
  tt: 'Tatar',
};

/**
 * What each language's voices read. libRHVoice keeps only the letters of its language's alphabet:
 * for text with none (`é`, `こんにちは`, `Ελληνικά` to an English voice) it spoke nothing at all.
 * English reads ASCII letters only, so its text is folded to ASCII (`é` → `e`, `ß` → `ss`); the
 * other alphabets are the languages' own, and Latin is left to the library (it may spell it).
 */
const SCRIPTS: Readonly<Record<string, readonly string[]>> = {
  en: ['Latin'],
  ru: ['Cyrillic', 'Latin'],
  uk: ['Cyrillic', 'Latin'],
  mk: ['Cyrillic', 'Latin'],
  ky: ['Cyrillic', 'Latin'],
  tt: ['Cyrillic', 'Latin'],
  pt: ['Latin'],
  pl: ['Latin'],
  sq: ['Latin'],
  eo: ['Latin'],
};

function isEnglish(voice: VoiceInfo): boolean {
  return primaryLanguage(voice.language) === 'en';
}

/** The scripts a voice reads, from its language; undefined (all) for a language not listed. */
function rhvoiceScripts(voice: VoiceInfo): readonly string[] | undefined {
  return SCRIPTS[primaryLanguage(voice.language)];
}

/** English voices get ASCII (accents dropped, `€` as euros); the others their text as it is. */
function rhvoiceText(text: string, voice: VoiceInfo): string {
  return isEnglish(voice) ? asciiFold(text) : text;
}

const capabilities: EngineCapabilities = {
  engine: 'rhvoice',
  kind: 'synthesizer',
  neural: false,
  languages: LANGUAGES,
  wordTimings: true,
  phonemeTimings: false,
  referenceAudio: false,
  blendableVoices: false,
  speed: true,
  pitch: { min: 0.5, max: 2 },
};

const library = new SharedSession(() => RhvoiceSession.open());

/**
 * The license of a voice's data from Debian's copyright file: the stanza naming the voice's folder,
 * else the one for all data (LGPL-2.1+ for the voices built from CMU ARCTIC).
 */
export function voiceLicense(copyright: string, folder: string): string | null {
  const stanzas = copyright.split(/\n\s*\n/).map((stanza) => ({
    files: /^Files:((?:.*)(?:\n[ \t].*)*)/m.exec(stanza)?.[1]?.split(/\s+/).filter(Boolean) ?? [],
    license: /^License:\s*(\S.*)$/m.exec(stanza)?.[1]?.trim(),
  }));
  const own = stanzas.find((stanza) => stanza.files.includes(`data/voices/${folder}/*`));
  return own?.license ?? stanzas.find((stanza) => stanza.files.includes('data/*'))?.license ?? null;
}

/** The rate the library speaks a voice at: its best-quality data (the default quality takes the highest rate). */
function sampleRateOf(folder: string): number {
  const rates = readdirSync(join(RHVOICE_DATA, 'voices', folder))
    .map(Number)
    .filter((rate) => Number.isInteger(rate) && rate > 0);
  return Math.max(16000, ...rates);
}

export function rhvoiceVoiceInfo(voice: RhvoiceVoice, sampleRate: number, license: string | null): VoiceInfo {
  const folder = voice.name.toLowerCase();
  const language = voice.country ? `${voice.language}-${voice.country}` : voice.language;
  const gender: Gender | null = voice.gender === 'unknown' ? null : voice.gender;
  const spoken = `${voice.country === 'US' ? 'US ' : ''}${LANGUAGE_NAMES[voice.language] ?? language}`;
  return {
    id: `rhvoice:${folder}`,
    engine: 'rhvoice',
    name: `RHVoice ${voice.name} (${spoken}${gender ? `, ${gender}` : ''})`,
    language,
    languages: [language],
    gender,
    sampleRate,
    license: license ?? 'see /usr/share/doc/librhvoice5/copyright',
    description: `RHVoice ${voice.name}: a statistical parametric (HTS) ${spoken} voice from Debian's rhvoice packages.`,
  };
}

async function discoverVoices(): Promise<VoiceInfo[]> {
  const session = await library.acquire();
  try {
    const copyright = existsSync(COPYRIGHT) ? readFileSync(COPYRIGHT, 'utf8') : '';
    return session.voices().map((voice) => {
      const folder = voice.name.toLowerCase();
      return rhvoiceVoiceInfo(voice, sampleRateOf(folder), voiceLicense(copyright, folder));
    });
  } finally {
    await library.release();
  }
}

/** Word events (UTF-8 byte spans, sample spans) as word timings in seconds. */
export function rhvoiceWordTimings(text: string, words: readonly RhvoiceWord[], sampleRate: number): WordTiming[] {
  const bytes = Buffer.from(text, 'utf8');
  return words.map((word) => ({
    word: wordOf(bytes.subarray(word.position, word.position + word.length).toString('utf8')),
    start: word.start / sampleRate,
    end: word.end / sampleRate,
  }));
}

export function createRhvoiceSynthesizer(options: BuiltinOptions = {}): Synthesizer {
  const hold = new SessionHold(library);

  async function renderPiece(job: PieceJob): Promise<SynthesisResult> {
    const session = await hold.get();
    const voice = job.voice.id.slice('rhvoice:'.length);
    const speech = await session.speak(voice, job.text, { rate: job.speed, pitch: job.pitch }, job.signal);
    return {
      pcm: { samples: floatFromInt16(speech.samples), sampleRate: speech.sampleRate },
      words: rhvoiceWordTimings(job.text, speech.words, speech.sampleRate),
    };
  }

  const engine = { capabilities, discoverVoices, scriptsRead: rhvoiceScripts, prepareText: rhvoiceText, renderPiece, dispose: () => hold.dispose() };
  return createBuiltinSynthesizer(engine, options);
}

/** Available once the library loads and at least one voice is installed. */
async function probe(): Promise<Availability> {
  const loaded = await probeLibrary(RHVOICE_LIBRARY, RHVOICE_PACKAGE);
  if (!loaded.available) return loaded;
  const voices = existsSync(join(RHVOICE_DATA, 'voices')) ? readdirSync(join(RHVOICE_DATA, 'voices')) : [];
  return voices.length > 0 ? loaded : { available: false, reason: 'no RHVoice voice is installed (Debian packages rhvoice-english, rhvoice-russian, …)' };
}

export const rhvoiceEngine: EngineDescriptor<Synthesizer> = {
  id: 'rhvoice',
  kind: 'synthesizer',
  neural: false,
  probe,
  load: async (settings) => createRhvoiceSynthesizer(settings),
};
