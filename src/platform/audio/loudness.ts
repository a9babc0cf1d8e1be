import { runChecked, type RunResult } from '../util/run.js';
import { filterPcm, runWithPcmInput } from './decode.js';
import type { Pcm } from './pcm.js';
import { requireRange } from './validate.js';

/** EBU R128 measurements. Silence, and input shorter than one 400 ms block, measure -Infinity. */
export interface Loudness {
  integratedLufs: number;
  loudnessRangeLu: number;
  /** Highest inter-sample peak, dBTP. */
  truePeakDb: number;
}

/** What loudnorm's first pass prints (`print_format=json`), as numbers. */
interface LoudnormAnalysis {
  input_i: number;
  input_tp: number;
  input_lra: number;
  input_thresh: number;
  target_offset: number;
}

/**
 * Loudness range target. Wide, so that speech keeps its dynamics: loudnorm leaves linear
 * (plain gain) mode for dynamic compression when the measured range exceeds it.
 */
const RANGE_TARGET_LU = 20;

/** Measures a Pcm or streams a file through ffmpeg's loudnorm analysis (files are mixed to mono). */
export async function measureLoudness(input: Pcm | string, signal?: AbortSignal): Promise<Loudness> {
  // The target changes only loudnorm's output, not the input measurements read here.
  const analysis = await analyse(input, loudnormTarget(-16, -1.5), signal);
  return { integratedLufs: analysis.input_i, loudnessRangeLu: analysis.input_lra, truePeakDb: analysis.input_tp };
}

/**
 * Brings integrated loudness to `targetLufs` with true peaks at most `truePeakDb`, by two-pass
 * loudnorm: plain gain when that respects the peak limit, else loudnorm's dynamic mode. The sample
 * rate is kept. Silent or too short input (no measurable loudness) comes back unchanged.
 */
export async function normalizeLoudness(pcm: Pcm, targetLufs = -16, truePeakDb = -1.5, signal?: AbortSignal): Promise<Pcm> {
  requireRange('target loudness (LUFS)', targetLufs, -70, -5);
  requireRange('true peak limit (dBTP)', truePeakDb, -9, 0);
  const target = loudnormTarget(targetLufs, truePeakDb);
  const measured = await analyse(pcm, target, signal);
  if (!Number.isFinite(measured.input_i)) return { samples: pcm.samples.slice(), sampleRate: pcm.sampleRate };
  const secondPass = [
    target,
    `measured_I=${measured.input_i}`,
    `measured_TP=${measured.input_tp}`,
    // loudnorm takes a measured range of 0 (a steady tone) for "not measured" and drops to dynamic mode.
    `measured_LRA=${Math.max(measured.input_lra, 0.01)}`,
    `measured_thresh=${measured.input_thresh}`,
    `offset=${measured.target_offset}`,
    'linear=true',
  ].join(':');
  // filterPcm asks for the input rate back: loudnorm alone would output 192 kHz.
  return filterPcm(pcm, secondPass, signal);
}

function loudnormTarget(targetLufs: number, truePeakDb: number): string {
  return `loudnorm=I=${targetLufs}:TP=${truePeakDb}:LRA=${RANGE_TARGET_LU}`;
}

async function analyse(input: Pcm | string, target: string, signal?: AbortSignal): Promise<LoudnormAnalysis> {
  if (typeof input !== 'string' && input.samples.length === 0) return SILENCE;
  const filter = `${target}:print_format=json`;
  // loudnorm prints its report at log level info, on stderr.
  const result =
    typeof input === 'string' ? await analyseFile(input, filter, signal) : await runWithPcmInput(input, ['-af', filter, '-f', 'null', '-'], signal, 'info');
  return parseAnalysis(result.stderr);
}

function analyseFile(path: string, filter: string, signal?: AbortSignal): Promise<RunResult> {
  const args = [
    '-nostdin',
    '-hide_banner',
    '-nostats',
    '-v',
    'info',
    '-i',
    path,
    '-map',
    '0:a:0',
    '-af',
    `aformat=channel_layouts=mono,${filter}`,
    '-f',
    'null',
    '-',
  ];
  return runChecked('ffmpeg', args, { signal });
}

const SILENCE: LoudnormAnalysis = { input_i: -Infinity, input_tp: -Infinity, input_lra: 0, input_thresh: -70, target_offset: 0 };

/** The JSON object loudnorm prints last on stderr; its numbers are strings, `-inf` for silence. */
function parseAnalysis(stderr: string): LoudnormAnalysis {
  const start = stderr.lastIndexOf('{');
  const end = stderr.lastIndexOf('}');
  if (start < 0 || end < start) throw new Error(`loudnorm printed no analysis: ${stderr.slice(-300)}`);
  const fields = JSON.parse(stderr.slice(start, end + 1)) as Record<string, string>;
  const read = (key: keyof LoudnormAnalysis): number => {
    const text = fields[key] ?? '';
    const value = text.endsWith('inf') ? (text.startsWith('-') ? -Infinity : Infinity) : Number(text);
    if (Number.isNaN(value)) throw new Error(`loudnorm printed ${key}=${JSON.stringify(text)}`);
    return value;
  };
  return {
    input_i: read('input_i'),
    input_tp: read('input_tp'),
    input_lra: read('input_lra'),
    input_thresh: read('input_thresh'),
    target_offset: read('target_offset'),
  };
}
