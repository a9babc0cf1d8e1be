import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { createBuiltinSynthesizer, probeInstalled, readWavOutput, runEngineProgram, type BuiltinOptions, type PieceJob } from './builtin-common.js';
import { PICO_VOICES, voiceInfo } from './builtin-voices.js';
import type { EngineCapabilities, EngineDescriptor, SynthesisResult, Synthesizer, VoiceInfo } from './types.js';
import { stripAngleBrackets } from './builtin-text.js';

/** SVOX Pico through pico2wave: six fixed languages, one female voice each, 16 kHz. */

const PROGRAM = 'pico2wave';
const LANGUAGE_DIR = '/usr/share/pico/lang';

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

/** pico2wave has no list option; a language is installed when its text-analysis file is. */
async function discoverVoices(): Promise<VoiceInfo[]> {
  const files = await readdir(LANGUAGE_DIR).catch(() => [] as string[]);
  const installed = new Set(files.filter((file) => file.endsWith('_ta.bin')).map((file) => file.slice(0, -'_ta.bin'.length)));
  return Object.entries(PICO_VOICES)
    .filter(([language]) => installed.has(language))
    .map(([language, entry]) => voiceInfo('pico', language, entry));
}

/** pico2wave says nothing at all for a run of more than 50 digits. */
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

async function renderPiece(job: PieceJob): Promise<SynthesisResult> {
  // pico2wave refuses output names that do not end in .wav.
  const output = join(job.dir, `piece-${job.index}.wav`);
  const language = job.voice.id.slice('pico:'.length);
  const args = ['-l', language, '-w', output, '--', withMarkup(job.text, job.speed, job.pitch)];
  const { stderr } = await runEngineProgram(PROGRAM, args, { signal: job.signal });
  return { pcm: await readWavOutput(output, PROGRAM, stderr) };
}

export function createPicoSynthesizer(options: BuiltinOptions = {}): Synthesizer {
  return createBuiltinSynthesizer({ capabilities, discoverVoices, prepareText: groupLongDigitRuns, renderPiece }, options);
}

export const picoEngine: EngineDescriptor<Synthesizer> = {
  id: 'pico',
  kind: 'synthesizer',
  neural: false,
  probe: async () => probeInstalled([PROGRAM], [LANGUAGE_DIR]),
  load: async (settings) => createPicoSynthesizer(settings),
};
