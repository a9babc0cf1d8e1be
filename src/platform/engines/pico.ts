import { existsSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { createBuiltinSynthesizer, type BuiltinOptions, type PieceJob } from './builtin-common.js';
import { PICO_VOICES, voiceInfo } from './builtin-voices.js';
import type { Availability, EngineCapabilities, EngineDescriptor, SynthesisResult, Synthesizer, VoiceInfo } from './types.js';
import { stripAngleBrackets } from './builtin-text.js';
import { EngineError } from '../errors.js';
import { floatFromInt16 } from '../audio/wav.js';
import { PICO_LIBRARY, PICO_PACKAGE, PicoSession, type PicoLanguage } from './native/libpico.js';
import { SessionHold, SharedSession, probeLibrary } from './native/library.js';

/**
 * SVOX Pico: six fixed languages, one female voice each, 16 kHz. It runs in this process through
 * libttspico, loaded once and kept warm: a piece costs only its synthesis, no program start-up.
 */

const LANGUAGE_DIR = '/usr/share/pico/lang';
const SAMPLE_RATE = 16_000;
/** pico2wave gives pico 2.5 MB for one language (en-US's lingware is 1.4 MB of it); each further language needs its files' size. */
const BASE_MEMORY = 2_500_000;

const capabilities: EngineCapabilities = {
  engine: 'pico',
  kind: 'synthesizer',
  neural: false,
  languages: Object.values(PICO_VOICES).map((entry) => entry.language),
  wordTimings: false,
  phonemeTimings: false,
  referenceAudio: false,
  blendableVoices: false,
  speed: true,
  // pico's <pitch level> takes 50..200 percent.
  pitch: { min: 0.5, max: 2 },
};

/** The installed languages: a text-analysis file `<lang>_ta.bin` and a signal-generation file `<lang>_<speaker>_sg.bin` each. */
async function installedLanguages(dir = LANGUAGE_DIR): Promise<Map<string, PicoLanguage>> {
  const files = await readdir(dir).catch(() => [] as string[]);
  const languages = new Map<string, PicoLanguage>();
  for (const name of Object.keys(PICO_VOICES)) {
    const signal = files.find((file) => file.startsWith(`${name}_`) && file.endsWith('_sg.bin'));
    if (files.includes(`${name}_ta.bin`) && signal) languages.set(name, { name, resources: [join(dir, `${name}_ta.bin`), join(dir, signal)] });
  }
  return languages;
}

/** pico keeps every language it has used loaded, in memory it is given at the start. */
async function memoryFor(languages: Map<string, PicoLanguage>): Promise<number> {
  const files = [...languages.values()].flatMap((language) => language.resources);
  const sizes = await Promise.all(files.map(async (file) => (await stat(file)).size));
  return sizes.reduce((total, size) => total + size, BASE_MEMORY);
}

/** The library keeps one system per process, shared by every synthesizer in it. */
const library = new SharedSession(async () => PicoSession.open(await memoryFor(await installedLanguages())));

/** Pico's six languages are written in Latin script; it answered other scripts with a tenth of a second of silence. */
const LATIN = ['Latin'];

/** pico said nothing at all for a run of more than 50 digits. */
const MAX_DIGITS = 50;
const DIGIT_GROUP = new RegExp(`[0-9]{${MAX_DIGITS}}(?=[0-9])`, 'g');

/** Cuts runs of more than MAX_DIGITS digits into groups of that many, which pico reads digit by digit as it would the whole run. */
export function groupLongDigitRuns(text: string): string {
  return text.replace(DIGIT_GROUP, '$& ');
}

/** Speed and pitch are only available as inline markup, which is why user text loses its angle brackets. */
function withMarkup(text: string, speed: number, pitch: number): string {
  const spoken = `<speed level="${Math.round(speed * 100)}">${stripAngleBrackets(text)}</speed>`;
  return pitch === 1 ? spoken : `<pitch level="${Math.round(pitch * 100)}">${spoken}</pitch>`;
}

export function createPicoSynthesizer(options: BuiltinOptions = {}): Synthesizer {
  const hold = new SessionHold(library);
  let languages: Promise<Map<string, PicoLanguage>> | undefined;
  const installed = () => (languages ??= installedLanguages());

  async function discoverVoices(): Promise<VoiceInfo[]> {
    const found = await installed();
    return Object.entries(PICO_VOICES)
      .filter(([language]) => found.has(language))
      .map(([language, entry]) => voiceInfo('pico', language, entry));
  }

  async function renderPiece(job: PieceJob): Promise<SynthesisResult> {
    const language = (await installed()).get(job.voice.id.slice('pico:'.length));
    if (!language) throw new EngineError('voice_not_found', `No pico voice ${job.voice.id}`, { voice: job.voice.id });
    const pico = await hold.get();
    const samples = await pico.speak(language, withMarkup(job.text, job.speed, job.pitch), job.signal, job.index === 0);
    return { pcm: { samples: floatFromInt16(samples), sampleRate: SAMPLE_RATE } };
  }

  const engine = { capabilities, discoverVoices, scriptsRead: () => LATIN, prepareText: groupLongDigitRuns, renderPiece, dispose: () => hold.dispose() };
  return createBuiltinSynthesizer(engine, options);
}

async function probe(): Promise<Availability> {
  if (!existsSync(LANGUAGE_DIR)) return { available: false, reason: `not installed: ${LANGUAGE_DIR} (Debian package libttspico-data)` };
  return probeLibrary(PICO_LIBRARY, PICO_PACKAGE);
}

export const picoEngine: EngineDescriptor<Synthesizer> = {
  id: 'pico',
  kind: 'synthesizer',
  neural: false,
  probe,
  load: async (settings) => createPicoSynthesizer(settings),
};
