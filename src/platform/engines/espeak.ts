import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createBuiltinSynthesizer, probeInstalled, runEngineProgram, type BuiltinOptions, type PieceJob } from './builtin-common.js';
import { ESPEAK_LANGUAGES, MBROLA_VOICES, espeakEntry, voiceInfo } from './builtin-voices.js';
import type { Availability, EngineCapabilities, EngineDescriptor, Gender, PhonemeTiming, SynthesisResult, Synthesizer, VoiceInfo } from './types.js';
import { floatFromInt16 } from '../audio/wav.js';
import { MBROLA_DELAY_SAMPLES, phonemeTimings, wordTimings, type TimingInput } from './native/espeak-events.js';
import { ESPEAK_LIBRARY, ESPEAK_PACKAGE, espeakSession } from './native/libespeak.js';
import { probeLibrary } from './native/library.js';
import { breakAbbreviationChains } from './builtin-text.js';
import { espeakMnemonics } from '../text/phonemes/espeak.js';
import { wordOfSounds } from '../text/phonemes/spoken-word.js';

/**
 * eSpeak NG: formant voices (22050 Hz) for many languages, with word and phoneme timings, and
 * `mb-*` voices that drive an MBROLA diphone database (16 kHz, more natural, with phoneme timings).
 * Speech runs in this process through libespeak-ng, loaded once and kept warm; the voices are
 * listed by the espeak-ng program, once.
 */

const PROGRAM = 'espeak-ng';
const MBROLA_DIR = '/usr/share/mbrola';
/** eSpeak's normal rate in words per minute; `-s` takes this times the speed factor. */
const NORMAL_WPM = 175;

const capabilities: EngineCapabilities = {
  engine: 'espeak',
  kind: 'synthesizer',
  neural: false,
  languages: [...new Set([...Object.values(MBROLA_VOICES), ...Object.values(ESPEAK_LANGUAGES)].map((entry) => entry.language))],
  // Formant voices only: under an MBROLA voice eSpeak NG (1.51) gives a word event per sentence.
  wordTimings: true,
  phonemeTimings: true,
  referenceAudio: false,
  blendableVoices: false,
  speed: true,
  // `[[mnemonics]]` converted from IPA (text/phonemes/espeak.ts), MBROLA voices too.
  phonemeInput: true,
};

interface ListedVoice {
  language: string;
  gender: Gender | null;
  /** Voice file relative to espeak's voice directory, e.g. `gmw/en-US` or `mb/mb-us1`. */
  file: string;
}

/** Parses `espeak-ng --voices` rows: `Pty Language Age/Gender VoiceName File Other…`. */
export function parseVoiceList(output: string): ListedVoice[] {
  return output
    .split('\n')
    .slice(1)
    .map((line) => line.trim().split(/\s+/))
    .filter((columns) => columns.length >= 5)
    .map(([, language = '', ageGender = '', , file = '']) => ({ language, gender: genderOf(ageGender), file }));
}

function genderOf(ageGender: string): Gender | null {
  if (ageGender.endsWith('/F')) return 'female';
  if (ageGender.endsWith('/M')) return 'male';
  return null;
}

async function listedVoices(filter: string): Promise<ListedVoice[]> {
  const { stdout } = await runEngineProgram(PROGRAM, [filter], { signal: AbortSignal.timeout(10_000) });
  return parseVoiceList(stdout.toString('utf8'));
}

/** `--voices=mb` lists every MBROLA voice eSpeak knows; only those with an installed database work. */
function mbrolaInstalled(id: string): boolean {
  return existsSync(join(MBROLA_DIR, id, id)) || existsSync(join(MBROLA_DIR, id));
}

async function discoverVoices(): Promise<VoiceInfo[]> {
  const [plain, mbrola] = await Promise.all([listedVoices('--voices'), listedVoices('--voices=mb')]);
  const mbrolaFiles = new Set(mbrola.map((voice) => voice.file));
  const mbrolaVoices = Object.entries(MBROLA_VOICES)
    .filter(([id]) => mbrolaFiles.has(`mb/mb-${id}`) && mbrolaInstalled(id))
    .map(([id, entry]) => voiceInfo('espeak', `mb-${id}`, entry));
  const formantVoices = Object.entries(ESPEAK_LANGUAGES).flatMap(([name, { language, label }]) => {
    const listed = plain.find((voice) => voice.language === name);
    return listed ? [voiceInfo('espeak', name, espeakEntry(language, label, listed.gender))] : [];
  });
  return [...mbrolaVoices, ...formantVoices];
}

function isMbrola(voice: VoiceInfo): boolean {
  return voice.id.startsWith('espeak:mb-');
}

/**
 * Parses MBROLA .pho lines (`phoneme duration-ms [pitch points]`), as `espeak-ng --pho` prints
 * them; pauses `_` advance time only. The library's phoneme events replace this second run; the
 * tests hold the two against each other.
 */
export function parsePho(pho: string): PhonemeTiming[] {
  const phonemes: PhonemeTiming[] = [];
  let time = 0;
  for (const line of pho.split('\n')) {
    const [phoneme, milliseconds] = line.trim().split(/\s+/);
    if (!phoneme || phoneme.startsWith(';') || milliseconds === undefined) continue;
    const end = time + Number(milliseconds) / 1000;
    if (phoneme !== '_') phonemes.push({ phoneme, start: time, end });
    time = end;
  }
  return phonemes;
}

export function createEspeakSynthesizer(options: BuiltinOptions = {}): Synthesizer {
  async function renderPiece(job: PieceJob): Promise<SynthesisResult> {
    const espeak = await espeakSession();
    const voice = job.voice.id.slice('espeak:'.length);
    // Phonemes with no sound eSpeak has (espeakMnemonics gives nothing) leave the written word to say.
    const mnemonics = job.phonemes ? espeakMnemonics(job.phonemes, job.voice.language) : '';
    const text = mnemonics ? `[[${mnemonics}]]` : job.text;
    const output = await espeak.synthesize(voice, text, Math.round(NORMAL_WPM * job.speed), job.signal, mnemonics !== '');
    const mbrola = isMbrola(job.voice);
    const timing: TimingInput = {
      events: output.events,
      text,
      sampleRate: output.sampleRate,
      totalSamples: output.samples.length,
      delaySamples: mbrola ? MBROLA_DELAY_SAMPLES : 0,
    };
    const pcm = { samples: floatFromInt16(output.samples), sampleRate: output.sampleRate };
    if (mnemonics) {
      const phonemes = phonemeTimings(timing);
      return { pcm, words: wordOfSounds(job.text, phonemes), phonemes };
    }
    return mbrola ? { pcm, phonemes: phonemeTimings(timing) } : { pcm, words: wordTimings(timing), phonemes: phonemeTimings(timing) };
  }

  // No dispose(): the library's session belongs to the process (see libespeak.ts).
  return createBuiltinSynthesizer({ capabilities, discoverVoices, prepareText: breakAbbreviationChains, renderPiece }, options);
}

/** The program lists the voices; the library speaks. */
async function probe(): Promise<Availability> {
  const program = probeInstalled([PROGRAM]);
  return program.available ? probeLibrary(ESPEAK_LIBRARY, ESPEAK_PACKAGE) : program;
}

export const espeakEngine: EngineDescriptor<Synthesizer> = {
  id: 'espeak',
  kind: 'synthesizer',
  neural: false,
  probe,
  load: async (settings) => createEspeakSynthesizer(settings),
};
