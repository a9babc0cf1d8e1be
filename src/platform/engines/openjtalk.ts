import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { concatPcm, durationOf, type Pcm } from '../audio/pcm.js';
import { EngineError } from '../errors.js';
import {
  clampPitch,
  clampSpeed,
  createBuiltinSynthesizer,
  probeInstalled,
  readWavOutput,
  runEngineProgram,
  type BuiltinOptions,
  type PieceJob,
} from './builtin-common.js';
import { OPENJTALK_VOICES, installedVoices } from './builtin-voices.js';
import {
  MAX_INPUT_BYTES,
  hasOverlongBreathGroup,
  OPENJTALK_SCRIPTS,
  openJtalkText,
  parseAnalysis,
  parseLabels,
  parseMorae,
  pieceInput,
  withBreathPauses,
  wordTimings,
  type AnalysedWord,
  type Span,
  type TraceLabel,
} from './openjtalk-text.js';
import type { Availability, EngineCapabilities, EngineDescriptor, PhonemeTiming, SynthesisResult, Synthesizer, VoiceInfo, WordTiming } from './types.js';

/**
 * Open JTalk: Japanese text analysis (MeCab with NAIST-jdic) driving an HTS voice, 48 kHz. There
 * is no library for it here, so each piece (a sentence) runs the `open_jtalk` program, which
 * writes the WAV and a trace with the text's analysis and each phoneme's time. A piece whose trace
 * shows a breath group longer than the voice can time is spoken with pauses between its accent
 * phrases (see MAX_PHRASES in openjtalk-text.ts); longer pieces are analysed before they are spoken.
 */

const PROGRAM = 'open_jtalk';
export const DICTIONARY_DIR = '/var/lib/mecab/dic/open-jtalk/naist-jdic';
/** HTS voice files by voice name. */
export const VOICE_FILES: Readonly<Record<string, string>> = {
  'nitech-jp-atr503-m001': '/usr/share/hts-voice/nitech-jp-atr503-m001/nitech_jp_atr503_m001.htsvoice',
};
const PACKAGES = 'Debian packages open-jtalk, open-jtalk-mecab-naist-jdic, hts-voice-nitech-jp-atr503-m001';
/** How open_jtalk says it found nothing to speak (exit status 1). */
const NOTHING_TO_SAY = /No phoneme/;
/** Labels of silence at the ends and of pauses, which are not phonemes spoken. */
const SILENCES = new Set(['sil', 'pau']);

const capabilities: EngineCapabilities = {
  engine: 'openjtalk',
  kind: 'synthesizer',
  neural: false,
  languages: [...new Set(Object.values(OPENJTALK_VOICES).map((entry) => entry.language))],
  wordTimings: true,
  phonemeTimings: true,
  referenceAudio: false,
  blendableVoices: false,
  speed: true,
  // `-fm` shifts by half-tones, the spectrum kept: an octave either way (60..240 Hz for M001) still sounds like speech.
  pitch: { min: 0.5, max: 2 },
};

export interface PieceFiles {
  text: string;
  wav: string;
  trace: string;
}

/** A pitch factor as open_jtalk's additional half-tones (`-fm`). */
export function halfTones(pitch: number): number {
  return 12 * Math.log2(clampPitch(pitch, capabilities.pitch));
}

/** The arguments that speak one piece: speed as `-r` (speech speed rate), pitch as `-fm`, both clamped. */
export function openJtalkArgs(voiceFile: string, files: PieceFiles, speed: number, pitch: number): string[] {
  const args = ['-x', DICTIONARY_DIR, '-m', voiceFile, '-ow', files.wav, '-ot', files.trace];
  const rate = Number(clampSpeed(speed).toFixed(3));
  if (rate !== 1) args.push('-r', String(rate));
  const shift = Number(halfTones(pitch).toFixed(3));
  if (shift !== 0) args.push('-fm', String(shift));
  args.push(files.text);
  return args;
}

/**
 * The arguments of a run for the trace alone: no WAV, eight times the speed at 8 kHz (5 ms frames
 * still), about 0.1 s whatever the text; the analysis and labels are those of the real run.
 */
export function analysisArgs(voiceFile: string, files: PieceFiles): string[] {
  return ['-x', DICTIONARY_DIR, '-m', voiceFile, '-ot', files.trace, '-r', '8', '-s', '8000', '-p', '40', files.text];
}

/**
 * Pieces longer than this (in bytes, ~20 kana or kanji) are analysed before they are spoken: in
 * prose most such sentences have a breath group too long for the voice, which costs seconds to
 * speak drawled only to be spoken again.
 */
export const ANALYSE_FIRST_BYTES = 60;

function voiceFile(voice: VoiceInfo): string {
  const file = VOICE_FILES[voice.id.slice('openjtalk:'.length)];
  if (!file) throw new EngineError('voice_not_found', `No openjtalk voice ${voice.id}`, { voice: voice.id });
  return file;
}

async function discoverVoices(): Promise<VoiceInfo[]> {
  return installedVoices(
    'openjtalk',
    OPENJTALK_VOICES,
    Object.keys(VOICE_FILES).filter((name) => existsSync(VOICE_FILES[name]!)),
  );
}

/** What one open_jtalk run wrote: the WAV, read only when it is kept (never for an analysis), and the trace, parsed. */
interface Run {
  wav: string;
  labels: TraceLabel[];
  words: AnalysedWord[];
  morae: Span[];
}

function runFiles(dir: string, name: string): PieceFiles {
  return { text: join(dir, `${name}.txt`), wav: join(dir, `${name}.wav`), trace: join(dir, `${name}.trace`) };
}

/** One open_jtalk run; undefined when it finds nothing to say (a piece of kanji the dictionary lacks, a lone `ー`). */
async function run(text: string, job: PieceJob, files: PieceFiles, analyse = false): Promise<Run | undefined> {
  if (Buffer.byteLength(text) > MAX_INPUT_BYTES) {
    throw new EngineError('engine_failed', `${PROGRAM} reads at most ${MAX_INPUT_BYTES} bytes, the piece has ${Buffer.byteLength(text)}`);
  }
  await writeFile(files.text, text);
  const args = analyse ? analysisArgs(voiceFile(job.voice), files) : openJtalkArgs(voiceFile(job.voice), files, job.speed, job.pitch);
  try {
    await runEngineProgram(PROGRAM, args, { signal: job.signal });
  } catch (error) {
    if (error instanceof EngineError && NOTHING_TO_SAY.test(String(error.details.stderr))) return undefined;
    throw error;
  }
  const trace = await readFile(files.trace, 'utf8');
  return { wav: files.wav, labels: parseLabels(trace), words: parseAnalysis(trace), morae: parseMorae(trace) };
}

function phonemeTimings(labels: readonly TraceLabel[]): PhonemeTiming[] {
  return labels.filter((label) => !SILENCES.has(label.phoneme)).map(({ phoneme, start, end }) => ({ phoneme, start, end }));
}

/**
 * A short piece is spoken at once; a long one analysed first. Where the trace shows a breath group
 * too long for the voice, the text is spoken with pauses, in as many runs as its lines (usually
 * one), and drawled audio is never read.
 */
async function renderPiece(job: PieceJob): Promise<SynthesisResult> {
  const dir = await job.dir();
  const input = pieceInput(job.text);
  const analyse = Buffer.byteLength(input) > ANALYSE_FIRST_BYTES;
  const first = await run(input, job, runFiles(dir, `piece-${job.index}`), analyse);
  // Nothing to say in this piece: no audio for it (a request with nothing at all to say is refused).
  const nothing = { pcm: { samples: new Float32Array(0), sampleRate: job.voice.sampleRate } };
  if (!first) return nothing;
  const overlong = hasOverlongBreathGroup(first.labels);
  if (!overlong && !analyse) return joined([first]);
  const runs: Run[] = [];
  for (const [line, text] of (overlong ? withBreathPauses(first.words) : [input]).entries()) {
    const spoken = await run(text, job, runFiles(dir, `piece-${job.index}-${line}`));
    if (spoken) runs.push(spoken);
  }
  if (runs.length > 0) return joined(runs);
  return analyse ? nothing : joined([first]);
}

/** Runs of one piece one after another, each one's word and phoneme timings shifted by the audio before it. */
async function joined(runs: readonly Run[]): Promise<SynthesisResult> {
  const pcms: Pcm[] = [];
  const phonemes: PhonemeTiming[] = [];
  const words: WordTiming[] = [];
  let offset = 0;
  const shifted = <T extends { start: number; end: number }>(timing: T): T => ({ ...timing, start: timing.start + offset, end: timing.end + offset });
  for (const run of runs) {
    const pcm = await readWavOutput(run.wav, PROGRAM);
    phonemes.push(...phonemeTimings(run.labels).map(shifted));
    words.push(...wordTimings(run.words, run.morae).map(shifted));
    offset += durationOf(pcm);
    pcms.push(pcm);
  }
  return { pcm: pcms.length === 1 ? pcms[0]! : concatPcm(pcms, pcms[0]!.sampleRate), words, phonemes };
}

export function createOpenJtalkSynthesizer(options: BuiltinOptions = {}): Synthesizer {
  return createBuiltinSynthesizer({ capabilities, discoverVoices, scriptsRead: () => OPENJTALK_SCRIPTS, prepareText: openJtalkText, renderPiece }, options);
}

async function probe(): Promise<Availability> {
  const found = probeInstalled([PROGRAM], [join(DICTIONARY_DIR, 'sys.dic'), ...Object.values(VOICE_FILES)]);
  return found.available ? found : { available: false, reason: `${found.reason} (${PACKAGES})` };
}

export const openjtalkEngine: EngineDescriptor<Synthesizer> = {
  id: 'openjtalk',
  kind: 'synthesizer',
  neural: false,
  probe,
  load: async (settings) => createOpenJtalkSynthesizer(settings),
};
