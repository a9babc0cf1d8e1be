import { Type, type Static } from 'typebox';
import { resample } from '../../platform/audio/effects.js';
import { decodeToPcm } from '../../platform/audio/decode.js';
import { normalizeLoudness } from '../../platform/audio/loudness.js';
import { durationOf, type Pcm } from '../../platform/audio/pcm.js';
import {
  bestSpeechWindow,
  clippedFraction,
  energySpeechRegions,
  estimateSnrDb,
  joinSpeech,
  peakLevelDb,
  splitWindows,
  totalSeconds,
} from './speech-quality.js';
import type { Span } from '../../platform/audio/trim.js';
import type { EngineClient } from '../../platform/engines/host/calls.js';
import type { EngineId } from '../../platform/engines/engine-ids.js';
import { ApiError, errorText } from '../../platform/errors.js';
import type { SimilarityMeasure } from './voice-similarity.js';
import { roundTo } from '../../platform/util/round.js';

/**
 * Sample intake for voice cloning: every sample is decoded, cut to its speech (Silero VAD when
 * installed, else by level), limited to its best window, loudness-normalised and checked. Problems
 * that make a clone impossible throw 422; problems that only make it worse become warnings.
 */

/** Processed samples are kept at this rate: what the zero-shot engines read, and plenty for analysis. */
export const SAMPLE_RATE = 24000;
const VAD_RATE = 16000;
/** At most this much of a sample is decoded; the best window is chosen inside it. */
const MAX_INPUT_SECONDS = 600;
/** Quieter than this everywhere, a file is silent. */
const SILENCE_DB = -60;
/** Signal-to-noise estimates (dB) below which a sample is refused, or kept with a warning. */
const SNR_REFUSED_DB = 6;
const SNR_WARNING_DB = 12;
/** More than this fraction of samples at full scale is audible distortion. */
const CLIPPING_WARNING = 0.001;
/** Window length for the several-speakers check, and the lowest similarity between two windows of one speaker. */
const SPEAKER_WINDOW_SECONDS = 3;
const SAME_SPEAKER_FLOOR: Partial<Record<EngineId, number>> = { 'acoustic-voiceprint': 0.2, 'speaker-embedding': 0.3 };
const LOUDNESS_LUFS = -20;

export interface IntakeLimits {
  minSpeechSeconds: number;
  maxSampleSeconds: number;
}

export const SampleSourceSchema = Type.Object({
  path: Type.String(),
  /** Position in the request, named in errors and warnings. */
  index: Type.Integer(),
  transcript: Type.Optional(Type.String()),
  /** Only this part of the file (create-clips regions). */
  region: Type.Optional(Type.Object({ start: Type.Number(), end: Type.Number() })),
});
export type SampleSource = Static<typeof SampleSourceSchema>;

export interface SampleWarning {
  code: string;
  message: string;
  sample?: number;
  details?: Record<string, unknown>;
}

export interface PreparedSample {
  index: number;
  pcm: Pcm;
  sourceSeconds: number;
  speechSeconds: number;
  transcript: string | null;
  warnings: SampleWarning[];
  /** What found the speech: the Silero VAD model, or frame levels when it is not installed. */
  speechDetector: 'silero-vad' | 'level';
}

export class SampleIntake {
  constructor(
    private readonly deps: { engines: EngineClient; vadInstalled: () => Promise<boolean> },
    private readonly limits: IntakeLimits,
  ) {}

  async prepare(source: SampleSource, signal: AbortSignal): Promise<PreparedSample> {
    const pcm = await this.decode(source, signal);
    const sourceSeconds = durationOf(pcm);
    const at = { sample: source.index };
    if (pcm.samples.length === 0 || peakLevelDb(pcm) < SILENCE_DB) {
      throw new ApiError(422, 'sample_silent', `Sample ${source.index} is silent`, { ...at, duration: roundTo(sourceSeconds, 2) });
    }
    const speechDetector = (await this.deps.vadInstalled()) ? 'silero-vad' : 'level';
    let regions = await this.speechRegions(pcm, speechDetector, signal);
    const speechSeconds = totalSeconds(regions);
    if (speechSeconds < this.limits.minSpeechSeconds) {
      const code = speechSeconds === 0 ? 'sample_silent' : 'sample_too_short';
      throw new ApiError(
        422,
        code,
        `Sample ${source.index} holds ${roundTo(speechSeconds, 2)} s of speech; a clone needs at least ${this.limits.minSpeechSeconds} s`,
        {
          ...at,
          speech_seconds: roundTo(speechSeconds, 2),
          min_speech_seconds: this.limits.minSpeechSeconds,
        },
      );
    }
    const warnings = qualityWarnings(pcm, source.index);
    if (speechSeconds > this.limits.maxSampleSeconds) {
      regions = bestSpeechWindow(regions, this.limits.maxSampleSeconds);
      warnings.push({
        code: 'trimmed_to_window',
        message: `Only the best ${this.limits.maxSampleSeconds} s of the sample are used`,
        ...at,
        details: { speech_seconds: roundTo(speechSeconds, 2), window: { start: roundTo(regions[0]!.start, 2), end: roundTo(regions.at(-1)!.end, 2) } },
      });
    }
    const speech = await normalizeLoudness(joinSpeech(pcm, regions), LOUDNESS_LUFS, -2, signal);
    return {
      index: source.index,
      pcm: speech,
      sourceSeconds,
      speechSeconds: roundTo(totalSeconds(regions), 2),
      transcript: source.transcript?.trim() || null,
      warnings,
      speechDetector,
    };
  }

  private async decode(source: SampleSource, signal: AbortSignal): Promise<Pcm> {
    const window = source.region
      ? { start: source.region.start, duration: source.region.end - source.region.start }
      : { start: 0, duration: MAX_INPUT_SECONDS };
    try {
      return await decodeToPcm(source.path, SAMPLE_RATE, signal, window);
    } catch (error) {
      signal.throwIfAborted();
      throw new ApiError(422, 'audio_undecodable', `Sample ${source.index} is not audio that can be decoded`, {
        sample: source.index,
        // ffmpeg's words, without the upload's path on this machine.
        reason: errorText(error).replaceAll(source.path, `sample ${source.index}`).slice(0, 300),
      });
    }
  }

  private async speechRegions(pcm: Pcm, detector: PreparedSample['speechDetector'], signal: AbortSignal): Promise<Span[]> {
    if (detector === 'level') return energySpeechRegions(pcm);
    return this.deps.engines.detect('silero-vad', await resample(pcm, VAD_RATE, signal), { signal });
  }
}

/**
 * Several speakers in what should be one: every 3 s window of speech is printed, and two windows
 * less alike than one speaker's windows ever are in calibration raise a warning.
 */
export async function checkSingleSpeaker(samples: readonly PreparedSample[], measure: SimilarityMeasure): Promise<SampleWarning[]> {
  const prints = [];
  for (const sample of samples) {
    for (const window of splitWindows(sample.pcm, SPEAKER_WINDOW_SECONDS)) {
      const print = await measure.tryPrint(window);
      if (print) prints.push(print);
    }
  }
  const floor = SAME_SPEAKER_FLOOR[measure.engine] ?? 0.2;
  let lowest = 1;
  for (let i = 0; i < prints.length; i++) {
    for (let j = i + 1; j < prints.length; j++) lowest = Math.min(lowest, await measure.similarity(prints[i]!, prints[j]!));
  }
  if (lowest >= floor) return [];
  return [
    {
      code: 'multiple_speakers',
      message: 'Parts of the audio sound like different speakers; a clone should hear one voice',
      details: { lowest_window_similarity: roundTo(lowest, 2), measure: measure.engine },
    },
  ];
}

/** Refuses a sample that is mostly noise; warns of noise and clipping that a clone would copy. */
function qualityWarnings(pcm: Pcm, index: number): SampleWarning[] {
  const warnings: SampleWarning[] = [];
  const at = { sample: index };
  const snr = estimateSnrDb(pcm);
  if (snr < SNR_REFUSED_DB) {
    throw new ApiError(422, 'sample_too_noisy', `Sample ${index} is mostly noise (signal-to-noise about ${roundTo(snr, 2)} dB)`, {
      ...at,
      snr_db: roundTo(snr, 2),
      min_snr_db: SNR_REFUSED_DB,
    });
  }
  if (snr < SNR_WARNING_DB)
    warnings.push({
      code: 'noisy',
      message: `Background noise is high (signal-to-noise about ${roundTo(snr, 2)} dB)`,
      ...at,
      details: { snr_db: roundTo(snr, 2) },
    });
  const clipped = clippedFraction(pcm);
  if (clipped > CLIPPING_WARNING) {
    warnings.push({
      code: 'clipping',
      message: `${roundTo(clipped * 100, 2)} % of the sample is clipped (distorted)`,
      ...at,
      details: { clipped_fraction: clipped },
    });
  }
  return warnings;
}
