import type { Pcm } from '../../platform/audio/pcm.js';
import { encodeWav } from '../../platform/audio/wav.js';
import type { VoiceConversion } from '../../platform/audio/conversion-schema.js';
import { POCKET_VOICE_ID } from '../../platform/engines/sherpa/pocket-tts.js';
import { ZIPVOICE_VOICE_ID } from '../../platform/engines/sherpa/zipvoice.js';
import { ApiError } from '../../platform/errors.js';
import type { EngineId } from '../../platform/engines/engine-ids.js';
import type { EngineCapabilities } from '../../platform/engines/types.js';
import type { PreparedSample, SampleWarning } from './intake.js';
import { nearestPreset, scorePresets, type CloneTarget, type ScoredVoice } from './target.js';
import { fitTimbreMatch, type TimbreTools } from './timbre-match.js';
import { firstIntelligible, intelligibilityWarnings, type Intelligibility } from './intelligibility.js';
import { searchVoiceSpace } from './voice-search.js';
import { measureZeroShot, zeroShotReference, type ZeroShotEngine } from './zero-shot.js';
import { speaksLanguage, type SpeakingVoice } from '../../platform/speech/speech.js';
import { styleToBytes, type VoiceRendering } from '../../platform/speech/voice-rendering.js';
import { roundTo } from '../../platform/util/round.js';

/** Best first. */
export const CLONE_METHODS = ['zero_shot', 'voice_search', 'timbre_match'] as const;
export type CloneMethod = (typeof CLONE_METHODS)[number];

const ZERO_SHOT_ENGINES: readonly (ZeroShotEngine & { languages: string[]; name: string })[] = [
  { engine: 'pocket-tts', engineVoice: POCKET_VOICE_ID, needsTranscript: false, languages: ['en'], name: 'Pocket TTS' },
  { engine: 'zipvoice', engineVoice: ZIPVOICE_VOICE_ID, needsTranscript: true, languages: ['en', 'zh'], name: 'ZipVoice' },
];

/** What the machine offers for one language: each method's means, or why it has none. */
export interface MethodOptions {
  zeroShot?: ZeroShotEngine;
  kokoroVoices: SpeakingVoice[];
  builtinVoices: SpeakingVoice[];
  /** Why each unavailable method is unavailable. */
  missing: Partial<Record<CloneMethod, string>>;
}

/** `baseEngines`: the built-in engines whose presets timbre_match may start from (a setting). */
export async function methodOptions(
  language: string,
  presets: readonly SpeakingVoice[],
  installed: (engine: EngineId) => Promise<boolean>,
  baseEngines: readonly string[],
): Promise<MethodOptions> {
  const missing: MethodOptions['missing'] = {};
  let zeroShot: ZeroShotEngine | undefined;
  for (const candidate of ZERO_SHOT_ENGINES) {
    if (candidate.languages.some((tag) => speaksLanguage({ language: tag, languages: [] }, language)) && (await installed(candidate.engine))) {
      zeroShot = candidate;
      break;
    }
  }
  if (!zeroShot)
    missing.zero_shot = `needs ${ZERO_SHOT_ENGINES.map((engine) => `${engine.name} (${engine.languages.join(', ')})`).join(' or ')} installed for ${language}`;
  const usable = presets.filter((voice) => voice.available && speaksLanguage(voice, language));
  const kokoroVoices = usable.filter((voice) => voice.engine === 'kokoro');
  if (kokoroVoices.length === 0) missing.voice_search = (await installed('kokoro')) ? `Kokoro has no voice for ${language}` : 'needs Kokoro installed';
  const builtinVoices = usable.filter((voice) => baseEngines.includes(voice.engine));
  if (builtinVoices.length === 0) missing.timbre_match = `no voice of the built-in engines clones start from (${baseEngines.join(', ')}) speaks ${language}`;
  return { zeroShot, kokoroVoices, builtinVoices, missing };
}

/** The requested method, or the best available; 422 when it cannot be used here. */
export function chooseMethod(options: MethodOptions, requested: CloneMethod | undefined, language: string): { method: CloneMethod; reason: string } {
  const available = CLONE_METHODS.filter((method) => !options.missing[method]);
  const method = requested ?? available[0];
  if (!method || options.missing[method]) {
    throw new ApiError(422, 'clone_method_unavailable', `No clone method can be used for ${language} here`, {
      language,
      requested: requested ?? null,
      missing: options.missing,
    });
  }
  const better = CLONE_METHODS.slice(0, CLONE_METHODS.indexOf(method));
  const reasons = better.map((skipped) => `${skipped} ${options.missing[skipped] ?? 'was not requested'}`);
  const reason = requested ? `requested${reasons.length ? `; ${reasons.join('; ')}` : ''}` : reasons.length ? reasons.join('; ') : 'the best method available';
  return { method, reason };
}

/** A fitted clone: how it speaks, what files it keeps, and how alike it measured. */
export interface MethodOutcome {
  engine: EngineId;
  engineVoice: string;
  rendering: VoiceRendering;
  files: Map<string, Uint8Array>;
  /** By the reporting measure, which never chose anything. */
  similarity: number | null;
  /** By the fitting measure, which chose the fit. */
  fitSimilarity: number | null;
  baseline: { voice: string; similarity: number; fitSimilarity: number } | null;
  startingVoice: string | null;
  parameters: Record<string, unknown>;
  /** How well the clone's probe is understood next to its base voice; undefined without a recognizer. */
  intelligibility: Intelligibility | undefined;
  warnings: SampleWarning[];
}

export interface MethodTools extends TimbreTools {
  progress(fraction: number, stage: string): void;
  styleOf: (voiceId: string) => Promise<Float32Array>;
  /** The words of a sample by the best installed recognizer; null when none handles the language. */
  transcribe(pcm: Pcm): Promise<string | null>;
}

export async function runMethod(
  method: CloneMethod,
  options: MethodOptions,
  tools: MethodTools,
  target: CloneTarget,
  samples: readonly PreparedSample[],
): Promise<MethodOutcome> {
  if (method === 'zero_shot') return runZeroShot(options, tools, target, samples);
  if (method === 'voice_search') return runVoiceSearch(options, tools, target);
  return runTimbreMatch(options, tools, target);
}

/** Scores preset voices against the target, reporting progress within [from, to). */
function scanPresets(tools: MethodTools, target: CloneTarget, voices: readonly SpeakingVoice[], from: number, to: number) {
  return scorePresets(tools, target, voices, (done) => tools.progress(from + ((to - from) * done) / voices.length, 'comparing voices'));
}

async function runZeroShot(options: MethodOptions, tools: MethodTools, target: CloneTarget, samples: readonly PreparedSample[]): Promise<MethodOutcome> {
  const engine = options.zeroShot!;
  const nearest = options.builtinVoices.length > 0 ? nearestPreset(await scanPresets(tools, target, options.builtinVoices, 0.3, 0.7)) : undefined;
  const transcribed = engine.needsTranscript ? await transcribedSample(samples, tools, target.language) : undefined;
  const result = await measureZeroShot(tools, target, engine, zeroShotReference(target, transcribed), transcribed?.transcript ?? null);
  tools.progress(0.9, 'measuring');
  // Nothing to choose between and no base voice: the clone is held to the fixed limit.
  const intelligibility = await tools.intelligibility?.measure(result.probe);
  return outcome(
    engine,
    { reference: { file: 'reference.wav', transcript: result.transcript } },
    new Map([['reference.wav', encodeWav(result.reference)]]),
    { ...result, intelligibility },
    nearest,
    null,
    {
      reference_seconds: roundTo(result.reference.samples.length / result.reference.sampleRate, 2),
    },
  );
}

async function runVoiceSearch(options: MethodOptions, tools: MethodTools, target: CloneTarget): Promise<MethodOutcome> {
  const scored = await scanPresets(tools, target, options.kokoroVoices, 0.3, 0.55);
  const ranked = await searchVoiceSpace(tools, target, scored, tools.styleOf, (fraction) => tools.progress(0.55 + 0.35 * fraction, 'searching voice space'));
  const check = tools.intelligibility;
  const found =
    check && (await firstIntelligible(iterate(ranked), (result) => check.measure(result.probe, { id: result.base.voice.id, probe: result.base.probe })));
  const result = found?.chosen ?? ranked[0]!;
  const voice: Pick<SpeakingVoice, 'engine' | 'engineVoice'> = { engine: 'kokoro', engineVoice: result.base.voice.engineVoice };
  return outcome(
    voice,
    { style: { file: 'style.f32' }, speed: result.speed },
    new Map([['style.f32', styleToBytes(result.style)]]),
    { ...result, intelligibility: found?.intelligibility },
    nearestPreset(scored),
    result.base.voice.id,
    {
      blend: result.blend,
      speed: result.speed,
    },
  );
}

async function runTimbreMatch(options: MethodOptions, tools: MethodTools, target: CloneTarget): Promise<MethodOutcome> {
  const scored = await scanPresets(tools, target, options.builtinVoices, 0.3, 0.6);
  const nativePitch = new Map<EngineId, EngineCapabilities['pitch']>();
  for (const engine of new Set(scored.map((voice) => voice.voice.engine))) {
    nativePitch.set(engine, (await tools.engines.capabilities(engine)).pitch);
  }
  const match = await fitTimbreMatch(
    tools,
    target,
    scored,
    (engine) => nativePitch.get(engine),
    (fraction) => tools.progress(0.6 + 0.3 * fraction, 'fitting conversion'),
  );
  const voice = { engine: match.start.voice.engine, engineVoice: match.start.voice.engineVoice };
  const { enginePitch, engineSpeed, conversion } = match.fit;
  const rendering: VoiceRendering = { ...(enginePitch === 1 ? {} : { pitch: enginePitch }), speed: engineSpeed, conversion };
  const parameters = {
    engine_pitch: enginePitch,
    engine_speed: engineSpeed,
    conversion: publicConversion(conversion),
  };
  return outcome(voice, rendering, new Map(), match, nearestPreset(scored), match.start.voice.id, parameters);
}

async function* iterate<T>(items: readonly T[]): AsyncGenerator<T> {
  yield* items;
}

function outcome(
  voice: Pick<SpeakingVoice, 'engine' | 'engineVoice'>,
  rendering: VoiceRendering,
  files: Map<string, Uint8Array>,
  score: { similarity: number; fitSimilarity: number; measured: boolean; intelligibility?: Intelligibility | undefined },
  nearest: ScoredVoice | undefined,
  startingVoice: string | null,
  parameters: Record<string, unknown>,
): MethodOutcome {
  const warnings: SampleWarning[] = score.measured
    ? []
    : [{ code: 'similarity_unmeasured', message: "The clone's test sentence holds too little voiced speech to be measured" }];
  warnings.push(...intelligibilityWarnings(score.intelligibility));
  return {
    engine: voice.engine,
    engineVoice: voice.engineVoice,
    rendering,
    files,
    similarity: score.measured ? roundTo(score.similarity, 3) : null,
    fitSimilarity: score.measured ? roundTo(score.fitSimilarity, 3) : null,
    baseline: nearest ? { voice: nearest.voice.id, similarity: roundTo(nearest.similarity, 3), fitSimilarity: roundTo(nearest.fitSimilarity, 3) } : null,
    startingVoice,
    parameters,
    intelligibility: score.intelligibility,
    warnings,
  };
}

/**
 * ZipVoice speaks from one sample and its words: the longest sample with a transcript, else the
 * longest sample transcribed by the recognizer.
 */
async function transcribedSample(
  samples: readonly PreparedSample[],
  tools: MethodTools,
  language: string,
): Promise<{ pcm: PreparedSample['pcm']; transcript: string }> {
  const longest = [...samples].sort((a, b) => b.speechSeconds - a.speechSeconds);
  const given = longest.find((sample) => sample.transcript);
  if (given) return { pcm: given.pcm, transcript: given.transcript! };
  tools.progress(0.75, 'transcribing the reference');
  const transcript = await tools.transcribe(longest[0]!.pcm);
  if (!transcript) {
    throw new ApiError(
      422,
      'transcript_required',
      'This zero-shot engine needs the words of a sample: send a transcript (no installed recognizer handles the language)',
      { language },
    );
  }
  return { pcm: longest[0]!.pcm, transcript };
}

/** The conversion as the API shows it (snake case, units in the names). */
export function publicConversion(conversion: VoiceConversion) {
  return {
    pitch_semitones: conversion.semitones,
    formant_scale: conversion.formantScale,
    tempo: conversion.tempo,
    equalizer: conversion.equalizer.map((band) => ({ frequency_hz: band.frequency, gain_db: band.gainDb, q: band.q ?? 1 })),
  };
}
