import pMap from 'p-map';
import { firstFit, milderFit, nextFit, type PitchRange, type VoiceFit } from './conversion-fit.js';
import type { VoiceAnalysis } from '../../platform/audio/analyse/index.js';
import type { Pcm } from '../../platform/audio/pcm.js';
import type { EngineId } from '../../platform/engines/engine-ids.js';
import { firstIntelligible, type Intelligibility, type IntelligibilityCheck } from './intelligibility.js';
import { ClearVoices } from './clear-voices.js';
import { convertVoice } from '../../platform/audio/voice-conversion.js';
import type { CloneTarget, ProbeTools, ScoredVoice } from './target.js';
import { fitScore, reportedScore, speakProbe } from './target.js';

/**
 * `timbre_match`, the built-in tier: the nearest built-in voices get a rendering fitted to the
 * target (native pitch and speed where the engine has them, then formant scale, residual pitch and
 * equalizer), and the one that ends up most like the target is kept, provided it keeps its words
 * (intelligibility.ts). Only fitting prints choose; the evaluation print only reports.
 */

/**
 * The voices fitted: the nearest by print; the nearest whose engine reaches the target's pitch
 * natively (a print can prefer a voice an octave away, and shifting audio that far smears the
 * words); the nearest by pitch. Then correction steps per voice.
 */
const NEAREST_BY_PRINT = 3;
const NEAREST_NATIVE = 2;
const NEAREST_BY_PITCH = 1;
const FIT_STEPS = 5;

/** One fitted rendering, scored by the fitting measure only: the reporting one never sees candidates. */
interface FittedCandidate {
  start: ScoredVoice;
  fit: VoiceFit;
  /** The probe as the engine rendered it with the fit's pitch and speed, before the conversion. */
  rendered: Pcm;
  converted: Pcm;
  analysis: VoiceAnalysis;
  fitSimilarity: number;
  /** False when the fitting print could not be made. */
  printed: boolean;
}

/** The fit kept, with its reported similarity and how well it is understood. */
export interface TimbreMatch extends FittedCandidate {
  similarity: number;
  measured: boolean;
  /** When a recognizer for the language is installed. */
  intelligibility?: Intelligibility;
}

export interface TimbreTools extends ProbeTools {
  /** Undefined when no installed recognizer handles the language. */
  intelligibility?: IntelligibilityCheck;
}

export async function fitTimbreMatch(
  tools: TimbreTools,
  target: CloneTarget,
  nearest: readonly ScoredVoice[],
  nativePitch: (engine: EngineId) => PitchRange | undefined,
  onStep: (fraction: number) => void,
): Promise<TimbreMatch> {
  const check = tools.intelligibility;
  const clear = check ? new ClearVoices(check, nearest) : undefined;
  const candidates = await fittedVoices(nearest, target, nativePitch, (voice) => clear?.isClear(voice) ?? Promise.resolve(true));
  // Candidates are fitted side by side when workers have slots for them; each fit's steps stay in order.
  let done = 0;
  const fitted = await pMap(
    candidates,
    async (start) => {
      const fit = await fitVoice(tools, target, start, nativePitch(start.voice.engine));
      onStep(++done / candidates.length);
      return fit;
    },
    { concurrency: tools.engines.parallelCalls(), signal: tools.signal },
  );
  if (fitted.length === 0) throw new Error('no candidate voice to fit');
  const chosen = await intelligibleBest(
    tools,
    target,
    fitted.sort((a, b) => b.fitSimilarity - a.fitSimilarity),
  );
  const reported = await reportedScore(tools, target, chosen.converted);
  return { ...chosen, ...reported, measured: chosen.printed && reported.measured };
}

/**
 * The most similar fit that keeps its words (against the same voice unconverted); a fit that does
 * not is tried once more, milder. When none passes, the one understood best.
 */
async function intelligibleBest(
  tools: TimbreTools,
  target: CloneTarget,
  ranked: FittedCandidate[],
): Promise<FittedCandidate & { intelligibility?: Intelligibility }> {
  const check = tools.intelligibility;
  if (!check) return ranked[0]!;
  async function* variants() {
    for (const match of ranked) {
      yield match;
      yield await milder(tools, target, match);
    }
  }
  const found = await firstIntelligible(variants(), (match) => check.measure(match.converted, { id: match.start.voice.id, probe: match.start.probe }));
  return { ...found!.chosen, intelligibility: found!.intelligibility };
}

async function milder(tools: ProbeTools, target: CloneTarget, match: FittedCandidate): Promise<FittedCandidate> {
  const fit = milderFit(match.fit);
  const converted = await convertVoice(match.rendered, fit.conversion, tools.signal);
  return { ...match, fit, converted, ...(await fitScore(tools, target, converted)) };
}

/** Correction steps for one voice; the step that came closest to the target is kept (later steps can overshoot). */
async function fitVoice(tools: ProbeTools, target: CloneTarget, start: ScoredVoice, nativePitch: PitchRange | undefined): Promise<FittedCandidate> {
  const nyquist = start.probe.sampleRate / 2;
  let fit = firstFit(start.analysis, target.analysis, nativePitch);
  let best: FittedCandidate | undefined;
  for (let step = 1; step <= FIT_STEPS; step++) {
    const rendered = await speakProbe(tools, start.voice, target.language, { pitch: fit.enginePitch, speed: fit.engineSpeed });
    const converted = await convertVoice(rendered, fit.conversion, tools.signal);
    const score = await fitScore(tools, target, converted);
    if (!best || score.fitSimilarity > best.fitSimilarity) best = { start, fit, rendered, converted, ...score };
    fit = nextFit(fit, score.analysis, target.analysis, nativePitch, nyquist);
  }
  return best!;
}

/**
 * The voices fitted, each among the clear ones: the nearest by print, the nearest that reach the
 * target's pitch natively, the nearest by pitch.
 */
async function fittedVoices(
  nearest: readonly ScoredVoice[],
  target: CloneTarget,
  nativePitch: (engine: EngineId) => PitchRange | undefined,
  isClear: (voice: ScoredVoice) => Promise<boolean>,
): Promise<ScoredVoice[]> {
  const pitchDistance = (voice: ScoredVoice) => Math.abs(Math.log(voice.analysis.pitch.medianHz / target.analysis.pitch.medianHz));
  const reachable = nearest.filter((voice) => {
    const range = nativePitch(voice.voice.engine);
    const needed = target.analysis.pitch.medianHz / voice.analysis.pitch.medianHz;
    return range !== undefined && needed >= range.min && needed <= range.max;
  });
  const byPitch = nearest.filter((voice) => Number.isFinite(pitchDistance(voice))).sort((a, b) => pitchDistance(a) - pitchDistance(b));
  const firstClear = async (ordered: readonly ScoredVoice[], count: number) => {
    const found: ScoredVoice[] = [];
    for (const voice of ordered) {
      if (found.length === count) break;
      if (await isClear(voice)) found.push(voice);
    }
    return found;
  };
  const picks = [
    ...(await firstClear(nearest, NEAREST_BY_PRINT)),
    ...(await firstClear(reachable, NEAREST_NATIVE)),
    ...(await firstClear(byPitch, NEAREST_BY_PITCH)),
  ];
  return [...new Set(picks)];
}
