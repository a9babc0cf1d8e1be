import pMap, { pMapSkip } from 'p-map';
import type { VoiceAnalysis } from '../../platform/audio/analyse/index.js';
import { concatPcm, durationOf, type Pcm } from '../../platform/audio/pcm.js';
import type { EngineClient } from '../../platform/engines/host/calls.js';
import type { SynthesisRequest, VoicePrint } from '../../platform/engines/types.js';
import { normalizeText } from '../../platform/text/normalize.js';
import type { PreparedSample } from './intake.js';
import { previewSentence } from '../voices/index.js';
import type { SpeakingVoice } from '../../platform/speech/speech.js';
import { averagePrint, type SimilarityMeasure } from './voice-similarity.js';
import { EngineError } from '../../platform/errors.js';
import { primaryLanguage } from '../../platform/text/language-tag.js';

/**
 * What every clone method fits to and is judged by: the target speaker's analysis and print from
 * the fitting part of the samples, and a print of a held-out part that no fitting has seen.
 */
export interface CloneTarget {
  language: string;
  analysis: VoiceAnalysis;
  /** Mean fitting print of the fitting parts of all samples (the voice's stored speaker embedding). */
  print: VoicePrint;
  /**
   * Print by the reporting measure (never the fitting one) of the held-out parts; of the fitting
   * audio when no sample was long enough to hold any out. Undefined when the reporting measure
   * cannot print the samples (too little speech of the kind it reads): similarity is then unmeasured.
   */
  evaluation: VoicePrint | undefined;
  heldOut: boolean;
  /** The fitting audio, every sample's fitting part joined (the zero-shot reference comes from it). */
  fitAudio: Pcm;
}

/**
 * A sample with at least this much speech gives its last third (5 s or more) to the evaluation.
 * Shorter held-out windows are not worth it: prints of two 3 s windows of one speaker differ
 * almost as much as prints of two speakers.
 */
const HOLD_OUT_FROM_SECONDS = 15;
const HOLD_OUT_FRACTION = 0.33;
const HOLD_OUT_MIN_SECONDS = 5;

/** The fixed test sentences every candidate and every clone speaks: a few seconds of varied sounds. */
export const PROBE_SENTENCES: Readonly<Record<string, string>> = {
  en: 'The quick brown fox jumps over the lazy dog. A good voice should sound natural, clear and warm, even when it reads numbers like seven hundred and twelve.',
  de: 'Der schnelle braune Fuchs springt über den faulen Hund. Eine gute Stimme klingt natürlich, klar und warm, auch wenn sie Zahlen vorliest.',
  fr: 'Le vif renard brun saute par-dessus le chien paresseux. Une bonne voix doit sonner naturelle, claire et chaleureuse, même en lisant des chiffres.',
  es: 'El rápido zorro marrón salta sobre el perro perezoso. Una buena voz debe sonar natural, clara y cálida, incluso al leer números.',
  it: 'La rapida volpe marrone salta sopra il cane pigro. Una buona voce deve suonare naturale, chiara e calda, anche quando legge dei numeri.',
  pt: 'A rápida raposa marrom salta sobre o cão preguiçoso. Uma boa voz deve soar natural, clara e calorosa, mesmo ao ler números.',
  nl: 'De snelle bruine vos springt over de luie hond. Een goede stem klinkt natuurlijk, helder en warm, ook als hij getallen voorleest.',
};

export function probeSentence(language: string): string {
  return PROBE_SENTENCES[primaryLanguage(language)] ?? `${previewSentence(language)} ${previewSentence(language)}`;
}

export async function buildTarget(
  samples: readonly PreparedSample[],
  language: string,
  { measure, report }: Pick<ProbeTools, 'measure' | 'report'>,
): Promise<CloneTarget> {
  const fitParts: Pcm[] = [];
  const heldParts: Pcm[] = [];
  for (const sample of samples) {
    const [fit, held] = splitHeldOut(sample.pcm);
    fitParts.push(fit);
    if (held) heldParts.push(held);
  }
  const fitAudio = concatPcm(fitParts, fitParts[0]!.sampleRate);
  const { analysis } = await measure.describe(fitAudio);
  const prints: VoicePrint[] = [];
  for (const part of fitParts) {
    const print = await measure.tryPrint(part);
    if (print) prints.push(print);
  }
  if (prints.length === 0) throw new EngineError('no_voiced_speech', 'The samples hold too little voiced speech to analyse');
  const print = averagePrint(prints);
  const held = heldParts.length > 0 ? await report.tryPrint(concatPcm(heldParts, heldParts[0]!.sampleRate)) : undefined;
  const evaluation = held ?? (await report.tryPrint(fitAudio));
  return { language, analysis, print, evaluation, heldOut: held !== undefined, fitAudio };
}

function splitHeldOut(pcm: Pcm): [Pcm, Pcm | undefined] {
  const seconds = durationOf(pcm);
  if (seconds < HOLD_OUT_FROM_SECONDS) return [pcm, undefined];
  const heldSeconds = Math.max(HOLD_OUT_MIN_SECONDS, seconds * HOLD_OUT_FRACTION);
  const cut = Math.round((seconds - heldSeconds) * pcm.sampleRate);
  return [
    { samples: pcm.samples.subarray(0, cut), sampleRate: pcm.sampleRate },
    { samples: pcm.samples.subarray(cut), sampleRate: pcm.sampleRate },
  ];
}

/** A preset speaking the probe sentence, scored against the target. */
export interface ScoredVoice {
  voice: SpeakingVoice;
  probe: Pcm;
  analysis: VoiceAnalysis;
  /** Similarity by the fitting measure (chooses) and by the reporting measure to the evaluation print (reports). */
  fitSimilarity: number;
  similarity: number;
  /** False when the probe could not be printed (too little voiced speech): both similarities are then 0. */
  measured: boolean;
}

export interface ProbeTools {
  engines: EngineClient;
  /** The fitting measure. */
  measure: SimilarityMeasure;
  /** The reporting measure, which never chooses. */
  report: SimilarityMeasure;
  signal: AbortSignal;
}

/** Speaks the probe sentence with a voice, with optional request inputs (reference, style, pitch, speed). */
export async function speakProbe(
  tools: Pick<ProbeTools, 'engines' | 'signal'>,
  voice: Pick<SpeakingVoice, 'engine' | 'engineVoice'>,
  language: string,
  extra: Partial<SynthesisRequest> = {},
): Promise<Pcm> {
  const request: SynthesisRequest = { text: normalizeText(probeSentence(language), language), voice: voice.engineVoice, language, ...extra };
  const { pcm } = await tools.engines.synthesize(voice.engine, request, { signal: tools.signal });
  return pcm;
}

/** How alike a probe is to the target by the fitting measure: all a fitting step needs. */
export async function fitScore(
  tools: ProbeTools,
  target: CloneTarget,
  probe: Pcm,
): Promise<{ analysis: VoiceAnalysis; fitSimilarity: number; printed: boolean }> {
  const { analysis, print } = await tools.measure.describe(probe);
  if (!print) return { analysis, fitSimilarity: 0, printed: false };
  return { analysis, fitSimilarity: await tools.measure.similarity(print, target.print), printed: true };
}

/** How alike a probe is to the target by the reporting measure; unmeasured (0) when either cannot be printed. */
export async function reportedScore(tools: ProbeTools, target: CloneTarget, probe: Pcm): Promise<{ similarity: number; measured: boolean }> {
  const { evaluation } = target;
  const check = evaluation && (await tools.report.tryPrint(probe));
  if (!evaluation || !check) return { similarity: 0, measured: false };
  return { similarity: await tools.report.similarity(check, evaluation), measured: true };
}

/** Both scores of a probe; a probe either measure cannot print is unmeasured, both similarities 0. */
export async function scoreProbe(
  tools: ProbeTools,
  target: CloneTarget,
  probe: Pcm,
): Promise<{ analysis: VoiceAnalysis; fitSimilarity: number; similarity: number; measured: boolean }> {
  const { analysis, fitSimilarity, printed } = await fitScore(tools, target, probe);
  const reported = printed ? await reportedScore(tools, target, probe) : { similarity: 0, measured: false };
  return reported.measured ? { analysis, fitSimilarity, ...reported } : { analysis, fitSimilarity: 0, similarity: 0, measured: false };
}

/**
 * Every preset speaks the probe and is scored, nearest first; voices that fail to speak it are
 * skipped, voices whose probe cannot be printed come last (still usable, unranked). As many voices
 * speak at once as the engines can run (one here, the free slots with workers).
 */
export async function scorePresets(
  tools: ProbeTools,
  target: CloneTarget,
  presets: readonly SpeakingVoice[],
  onEach: (done: number) => void,
): Promise<ScoredVoice[]> {
  let done = 0;
  const scored = await pMap(
    presets,
    async (voice): Promise<ScoredVoice | typeof pMapSkip> => {
      tools.signal.throwIfAborted();
      const probe = await speakProbe(tools, voice, target.language).catch((error: unknown) => {
        tools.signal.throwIfAborted();
        if (error instanceof Error && 'code' in error && error.code === 'cancelled') throw error;
        return undefined;
      });
      const result = probe ? { voice, probe, ...(await scoreProbe(tools, target, probe)) } : pMapSkip;
      onEach(++done);
      return result;
    },
    { concurrency: tools.engines.parallelCalls(), signal: tools.signal },
  );
  return scored.sort((a, b) => b.fitSimilarity - a.fitSimilarity);
}

/** The nearest preset by the reported measure: the baseline every clone is compared with. */
export function nearestPreset(scored: readonly ScoredVoice[]): ScoredVoice | undefined {
  return scored.filter((voice) => voice.measured).sort((a, b) => b.similarity - a.similarity)[0];
}
