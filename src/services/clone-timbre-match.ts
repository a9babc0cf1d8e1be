import { firstFitStep, fitStep } from '../audio/conversion-fit.js';
import type { VoiceConversion } from '../audio/voice-conversion.js';
import { convertVoice } from '../audio/voice-conversion.js';
import type { CloneTarget, ProbeTools, ScoredVoice } from './clone-target.js';
import { scoreProbe } from './clone-target.js';

/**
 * `timbre_match`, the built-in tier: the nearest built-in voices get a conversion chain fitted to
 * the target (pitch, formant scale, tempo, equalizer), and the one that ends up most like the target
 * is kept. Only fitting prints are used to choose; the evaluation print only reports.
 */

/**
 * The voices fitted: the nearest by print, plus the nearest by pitch (a print can prefer a voice an
 * octave away, which no pitch shift bridges well). Then correction steps per voice.
 */
const NEAREST_BY_PRINT = 3;
const NEAREST_BY_PITCH = 2;
const FIT_STEPS = 4;

export interface TimbreMatch {
  start: ScoredVoice;
  conversion: VoiceConversion;
  fitSimilarity: number;
  similarity: number;
  measured: boolean;
}

export async function fitTimbreMatch(tools: ProbeTools, target: CloneTarget, nearest: readonly ScoredVoice[], onStep: (fraction: number) => void): Promise<TimbreMatch> {
  const candidates = fittedVoices(nearest, target);
  let best: TimbreMatch | undefined;
  for (const [index, start] of candidates.entries()) {
    const match = await fitVoice(tools, target, start);
    if (!best || match.fitSimilarity > best.fitSimilarity) best = match;
    onStep((index + 1) / candidates.length);
  }
  if (!best) throw new Error('no candidate voice to fit');
  return best;
}

/** Correction steps for one voice; the step that came closest to the target is kept (later steps can overshoot). */
async function fitVoice(tools: ProbeTools, target: CloneTarget, start: ScoredVoice): Promise<TimbreMatch> {
  const nyquist = start.probe.sampleRate / 2;
  let conversion = firstFitStep(start.analysis, target.analysis, nyquist);
  let best: TimbreMatch | undefined;
  for (let step = 1; step <= FIT_STEPS; step++) {
    const converted = await convertVoice(start.probe, conversion, tools.signal);
    const score = await scoreProbe(tools, target, converted);
    if (!best || score.fitSimilarity > best.fitSimilarity) best = { start, conversion, ...score };
    conversion = fitStep(conversion, score.analysis, target.analysis, nyquist);
  }
  return best!;
}

function fittedVoices(nearest: readonly ScoredVoice[], target: CloneTarget): ScoredVoice[] {
  const pitchDistance = (voice: ScoredVoice) => Math.abs(Math.log(voice.analysis.pitch.medianHz / target.analysis.pitch.medianHz));
  const byPitch = nearest.filter((voice) => Number.isFinite(pitchDistance(voice))).sort((a, b) => pitchDistance(a) - pitchDistance(b));
  return [...new Set([...nearest.slice(0, NEAREST_BY_PRINT), ...byPitch.slice(0, NEAREST_BY_PITCH)])];
}
