import type { Pcm } from '../../platform/audio/pcm.js';
import type { CloneTarget, ProbeTools, ScoredVoice } from './target.js';
import { scoreProbe, speakProbe } from './target.js';
import { mixStyles } from '../../platform/speech/voice-rendering.js';

/**
 * `voice_search`: a search in Kokoro's voice space. The presets nearest to the target are blended
 * (their style vectors mixed by weight), and speed is tried too; every candidate speaks the probe
 * sentence, and the candidates are ranked by how alike they are to the target's fitting print (the
 * caller keeps the first that stays intelligible). Plain coordinate steps over a small grid: each
 * candidate costs one synthesis, so the budget is a dozen.
 */

/** How many nearest presets take part in blends. */
const BLENDED = 3;
/** Weights tried for the nearest three (the first is the nearest preset alone, the baseline). */
const WEIGHTINGS: readonly (readonly number[])[] = [
  [1, 0, 0],
  [0.75, 0.25, 0],
  [0.75, 0, 0.25],
  [0.5, 0.5, 0],
  [0.5, 0, 0.5],
  [0.6, 0.2, 0.2],
  [0.34, 0.33, 0.33],
];
/** Speed factors tried with the best weights. */
const SPEEDS = [0.9, 1.1];

export interface VoiceSearchResult {
  base: ScoredVoice;
  blend: { voice: string; weight: number }[];
  style: Float32Array;
  speed: number;
  /** The probe sentences as this candidate speaks them. */
  probe: Pcm;
  fitSimilarity: number;
  similarity: number;
  measured: boolean;
}

export async function searchVoiceSpace(
  tools: ProbeTools,
  target: CloneTarget,
  nearest: readonly ScoredVoice[],
  styleOf: (voiceId: string) => Promise<Float32Array>,
  onStep: (fraction: number) => void,
): Promise<VoiceSearchResult[]> {
  const voices = nearest.slice(0, BLENDED);
  const base = voices[0];
  if (!base) throw new Error('no Kokoro voice to start from');
  const styles = await Promise.all(voices.map((voice) => styleOf(voice.voice.id)));
  const budget = WEIGHTINGS.length + SPEEDS.length;
  let done = 0;
  const tried: VoiceSearchResult[] = [];
  const attempt = async (weights: readonly number[], speed: number): Promise<VoiceSearchResult> => {
    const used = weights.slice(0, voices.length);
    const total = used.reduce((sum, weight) => sum + weight, 0);
    const blend = used.map((weight, i) => ({ voice: voices[i]!.voice.id, weight: weight / total })).filter((part) => part.weight > 0);
    const style = mixStyles(
      styles,
      used.map((weight) => weight / total),
    );
    const probe = await speakProbe(tools, base.voice, target.language, { style, speed });
    const score = await scoreProbe(tools, target, probe);
    onStep(++done / budget);
    const result = { base, blend, style, speed, probe, fitSimilarity: score.fitSimilarity, similarity: score.similarity, measured: score.measured };
    tried.push(result);
    return result;
  };
  let best = await attempt(WEIGHTINGS[0]!, 1);
  for (const weights of WEIGHTINGS.slice(1)) {
    if (weights.slice(voices.length).some((weight) => weight > 0)) continue;
    const result = await attempt(weights, 1);
    if (result.fitSimilarity > best.fitSimilarity) best = result;
  }
  const weights = voices.map((voice) => best.blend.find((part) => part.voice === voice.voice.id)?.weight ?? 0);
  for (const speed of SPEEDS) await attempt(weights, speed);
  return tried.sort((a, b) => b.fitSimilarity - a.fitSimilarity);
}
