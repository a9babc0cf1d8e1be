import { join } from 'node:path';
import { createBuiltinSynthesizer, probeInstalled, readWavOutput, runEngineProgram, type BuiltinOptions, type PieceJob } from './builtin-common.js';
import { FLITE_VOICES, installedVoices } from './builtin-voices.js';
import type { EngineCapabilities, EngineDescriptor, PhonemeTiming, SynthesisResult, Synthesizer, VoiceInfo } from './types.js';
import { asciiPlainText } from './builtin-text.js';

/** Flite: CMU's small engine with its voices compiled in; 16 kHz English voices. */

const PROGRAM = 'flite';
/** Flite's segment label for silence. */
const PAUSE = 'pau';

const capabilities: EngineCapabilities = {
  engine: 'flite',
  kind: 'synthesizer',
  neural: false,
  languages: [...new Set(Object.values(FLITE_VOICES).map((entry) => entry.language))],
  wordTimings: false,
  phonemeTimings: true,
  referenceAudio: false,
  blendableVoices: false,
  speed: true,
  // A target mean in Hz: an octave and a half up still sounds like speech.
  pitch: { min: 0.5, max: 3 },
};

/**
 * Median F0 of each voice as shipped, Hz (measured on a test sentence). Flite takes pitch as a
 * target mean in Hz, so a pitch factor becomes this times the factor.
 */
const NATURAL_F0_HZ: Readonly<Record<string, number>> = { slt: 167, rms: 100, awb: 123, kal16: 89, kal: 89, awb_time: 133 };

/** Parses `flite -lv`: `Voices available: kal awb_time kal16 awb rms slt`. */
export function parseVoiceList(output: string): string[] {
  return output.replace(/^.*?:/s, '').split(/\s+/).filter(Boolean);
}

/** Flite falls back to its 8 kHz kal voice for unknown names, so only `-lv` tells what exists. */
async function discoverVoices(): Promise<VoiceInfo[]> {
  const { stdout } = await runEngineProgram(PROGRAM, ['-lv'], { signal: AbortSignal.timeout(10_000) });
  return installedVoices('flite', FLITE_VOICES, parseVoiceList(stdout.toString('utf8')));
}

/** Parses `-psdur` output, `phoneme:end-seconds` pairs; pauses advance time only. */
export function parseSegmentEnds(output: string): PhonemeTiming[] {
  const phonemes: PhonemeTiming[] = [];
  let start = 0;
  for (const token of output.split(/\s+/)) {
    const match = /^([^:]+):(\d+(?:\.\d+)?)$/.exec(token);
    if (!match?.[1] || !match[2]) continue;
    const end = Number(match[2]);
    if (match[1] !== PAUSE) phonemes.push({ phoneme: match[1], start, end });
    start = end;
  }
  return phonemes;
}

async function renderPiece(job: PieceJob): Promise<SynthesisResult> {
  const output = join(job.dir, `piece-${job.index}.wav`);
  // `-t` always: a bare argument without a space would be taken for a file name.
  const name = job.voice.id.slice('flite:'.length);
  const natural = NATURAL_F0_HZ[name];
  const pitch = job.pitch !== 1 && natural ? ['--setf', `int_f0_target_mean=${Math.round(natural * job.pitch)}`] : [];
  const args = ['-voice', name, '--setf', `duration_stretch=${1 / job.speed}`, ...pitch, '-psdur', '-t', job.text, '-o', output];
  const { stdout, stderr } = await runEngineProgram(PROGRAM, args, { signal: job.signal });
  return { pcm: await readWavOutput(output, PROGRAM, stderr), phonemes: parseSegmentEnds(stdout.toString('utf8')) };
}

export function createFliteSynthesizer(options: BuiltinOptions = {}): Synthesizer {
  return createBuiltinSynthesizer({ capabilities, discoverVoices, prepareText: asciiPlainText, renderPiece }, options);
}

export const fliteEngine: EngineDescriptor<Synthesizer> = {
  id: 'flite',
  kind: 'synthesizer',
  neural: false,
  probe: async () => probeInstalled([PROGRAM]),
  load: async (settings) => createFliteSynthesizer(settings),
};
