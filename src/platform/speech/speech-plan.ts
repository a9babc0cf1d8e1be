import { Type, type Static } from 'typebox';
import type { EngineId } from '../engines/engine-ids.js';
import { EngineIdSchema } from '../engines/engine-id-schema.js';
import { normalizeText } from '../text/normalize.js';
import type { MarkedRun, SpeechRun } from '../text/ssml/segments.js';
import { expectedAudioSeconds, withinAudioBudget } from './speech-budget.js';
import { assertSpeaks, assertUsable, languageTagFor, type SpeakingVoice } from './speaking-voice.js';
import { renderingOf, VoiceRenderingSchema } from './voice-rendering.js';

/**
 * What a synthesis job speaks, in order: runs of speech, each with its engine, request, the
 * voice's rendering and what is done to its audio afterwards (gain, pitch), and pauses. A plain
 * text is one run; SSML and pronunciation dictionaries make more (see text/ssml/segments.ts).
 */

export const PhonemesSchema = Type.Object({ alphabet: Type.Union([Type.Literal('ipa'), Type.Literal('x-sampa')]), value: Type.String() });

/**
 * What a job stores of a synthesis request: the text and how to speak it. A clone's reference
 * recording and style vector are read from the voice's files when the job runs.
 */
export const SpeechRequestSchema = Type.Object({
  text: Type.String(),
  voice: Type.String(),
  language: Type.Optional(Type.String()),
  speed: Type.Optional(Type.Number()),
  pitch: Type.Optional(Type.Number()),
  seed: Type.Optional(Type.Integer()),
  phonemes: Type.Optional(PhonemesSchema),
});
export type SpeechRequest = Static<typeof SpeechRequestSchema>;

export const PlannedSpeechSchema = Type.Object({
  kind: Type.Literal('speech'),
  engine: EngineIdSchema,
  request: SpeechRequestSchema,
  rendering: VoiceRenderingSchema,
  /** Gain in decibels applied to the run's audio; null is silence (`volume="silent"`). */
  gainDb: Type.Union([Type.Number(), Type.Null()]),
  /** Pitch factor applied to the run's audio, tempo kept (1: none). */
  pitch: Type.Number(),
});
export const PlannedPauseSchema = Type.Object({ kind: Type.Literal('break'), seconds: Type.Number() });
export const SpeechPlanSchema = Type.Array(Type.Union([PlannedSpeechSchema, PlannedPauseSchema]));
export type PlannedSpeech = Static<typeof PlannedSpeechSchema>;
export type SpeechPlan = Static<typeof SpeechPlanSchema>;

/** The speech of one request as a plan of one run, as it was before markup. */
export function singleRun(engine: EngineId, request: SpeechRequest, rendering: PlannedSpeech['rendering']): SpeechPlan {
  return [{ kind: 'speech', engine, request, rendering, gainDb: 0, pitch: 1 }];
}

/** How the request speaks: its voice, language and what it asks of every run. */
export interface PlanBase {
  voice: SpeakingVoice;
  language: string;
  speed?: number;
  pitch?: number;
  seed?: number;
}

/** Typical speaking pitch (Hz) by stated gender, the base of `prosody pitch` in hertz; unknown: between them. */
const NOMINAL_PITCH_HZ = { female: 210, male: 120, unknown: 165 };

/** Pitch factors beyond these are refused by the parser; hertz values resolved against the voice are held to them too. */
const PITCH_FACTOR = { min: 0.5, max: 2 };

/**
 * The plan of marked runs spoken by `base`: a run naming another voice (`<voice name>`) is
 * spoken by that voice (which must be usable and speak the run's language); neighbouring runs
 * spoken alike are joined, so the engine reads whole sentences with their natural melody.
 */
export async function planSpeech(runs: readonly MarkedRun[], base: PlanBase, findVoice: (id: string) => Promise<SpeakingVoice>): Promise<SpeechPlan> {
  const voices = new Map<string, SpeakingVoice>([[base.voice.id, base.voice]]);
  const plan: SpeechPlan = [];
  for (const run of joinAlike(runs)) {
    if (run.kind === 'break') {
      const last = plan.at(-1);
      if (last?.kind === 'break') last.seconds += run.seconds;
      else if (run.seconds > 0) plan.push({ ...run });
      continue;
    }
    // A run with nothing to say is left out, unless nothing has: then the engine refuses the text as it would without markup.
    if (!sayable(run) && runs.some((other) => other.kind === 'speech' && sayable(other))) continue;
    const voice = run.voice === undefined ? base.voice : await voiceOf(run.voice, voices, findVoice);
    plan.push(plannedRun(run, voice, base));
  }
  return plan;
}

function sayable(run: SpeechRun): boolean {
  return run.phonemes !== undefined || /[\p{L}\p{N}]/u.test(run.text);
}

async function voiceOf(id: string, voices: Map<string, SpeakingVoice>, findVoice: (id: string) => Promise<SpeakingVoice>): Promise<SpeakingVoice> {
  let voice = voices.get(id);
  if (!voice) {
    voice = await findVoice(id);
    assertUsable(voice);
    voices.set(id, voice);
  }
  return voice;
}

function plannedRun(run: SpeechRun, voice: SpeakingVoice, base: PlanBase): PlannedSpeech {
  let language = voice === base.voice ? base.language : voice.language;
  if (run.language !== undefined) {
    assertSpeaks(voice, run.language);
    language = languageTagFor(voice, run.language);
  }
  const speed = (base.speed ?? 1) * run.rate;
  const request: SpeechRequest = {
    text: normalizeText(run.text, language),
    voice: voice.engineVoice,
    language,
    ...(speed !== 1 ? { speed } : {}),
    ...(base.pitch !== undefined ? { pitch: base.pitch } : {}),
    ...(base.seed !== undefined ? { seed: base.seed } : {}),
    ...(run.phonemes ? { phonemes: run.phonemes } : {}),
  };
  return {
    kind: 'speech',
    engine: voice.engine,
    request,
    rendering: renderingOf(voice),
    gainDb: Number.isFinite(run.volumeDb) ? run.volumeDb : null,
    pitch: pitchFactor(run, voice),
  };
}

function pitchFactor(run: SpeechRun, voice: SpeakingVoice): number {
  if (!run.pitchHz) return run.pitch;
  const own = NOMINAL_PITCH_HZ[voice.gender ?? 'unknown'];
  const target = run.pitchHz.relative ? own + run.pitchHz.hz : run.pitchHz.hz;
  return Math.min(PITCH_FACTOR.max, Math.max(PITCH_FACTOR.min, (run.pitch * target) / own));
}

/** Runs with the same voice, language, prosody and no phonemes joined into one (their words kept apart by a space). */
function joinAlike(runs: readonly MarkedRun[]): MarkedRun[] {
  const joined: MarkedRun[] = [];
  for (const run of runs) {
    const last = joined.at(-1);
    if (last?.kind === 'speech' && run.kind === 'speech' && spokenAlike(last, run)) {
      joined[joined.length - 1] = { ...last, text: `${last.text.trimEnd()} ${run.text.trimStart()}`, literal: last.literal && run.literal };
    } else joined.push(run);
  }
  return joined;
}

function spokenAlike(a: SpeechRun, b: SpeechRun): boolean {
  return (
    !a.phonemes &&
    !b.phonemes &&
    a.voice === b.voice &&
    a.language === b.language &&
    a.rate === b.rate &&
    a.pitch === b.pitch &&
    a.volumeDb === b.volumeDb &&
    a.pitchHz?.hz === b.pitchHz?.hz &&
    a.pitchHz?.relative === b.pitchHz?.relative
  );
}

/** Seconds of audio a plan is expected to make: its runs at their pace, and its pauses. */
export function planSeconds(plan: SpeechPlan): number {
  return plan.reduce((sum, item) => sum + (item.kind === 'break' ? item.seconds : expectedAudioSeconds(item.request, item.rendering)), 0);
}

/** The plan's expected seconds; 422 `audio_too_long` over `maxSeconds` (see checkAudioBudget). */
export function checkPlanBudget(plan: SpeechPlan, maxSeconds: number): number {
  return withinAudioBudget(planSeconds(plan), maxSeconds);
}
