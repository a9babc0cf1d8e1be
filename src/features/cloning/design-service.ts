import { Type, type Static } from 'typebox';
import { jobKind } from '../../platform/jobs/kinds.js';
import { milderFit, withPitch, type VoiceFit } from './conversion-fit.js';
import type { Pcm } from '../../platform/audio/pcm.js';
import { BaseRates, firstIntelligible, intelligibilityWarnings, publicIntelligibility, type Intelligibility } from './intelligibility.js';
import { recognitionFor } from './recognition.js';
import { convertVoice } from '../../platform/audio/voice-conversion.js';
import type { EngineClient } from '../../platform/engines/host/calls.js';
import { ApiError } from '../../platform/errors.js';
import type { JobQueue } from '../../platform/jobs/queue.js';
import type { JobRecord, JobRunContext } from '../../platform/jobs/types.js';
import type { VoiceFiles } from '../../platform/speech/voice-files.js';
import { type VoiceRecord, type VoiceRepository, newCustomVoice, saveCustomVoice } from '../voices/index.js';
import { publicConversion } from './methods.js';
import { speakProbe } from './target.js';
import { chooseBaseVoice, designAttributes, designTargets, type DesignAttributes, type DesignTargets, DesignInputSchema } from './design-plan.js';
import type { VoiceAnalysis } from '../../platform/audio/analyse/index.js';
import { engineAvailable } from '../../platform/engines/inventory.js';
import type { EngineId } from '../../platform/engines/engine-ids.js';
import { cancelOwnJobs, type CancelledJob } from '../../platform/jobs/job-cancel.js';
import { completedJob } from '../../platform/jobs/job-errors.js';
import { speaksLanguage, type SpeakingVoice } from '../../platform/speech/speech.js';
import { mixStyles, styleToBytes, type VoiceRendering } from '../../platform/speech/voice-rendering.js';
import { analyseSpeech } from './voice-similarity.js';
import { roundOrNull } from '../../platform/util/round.js';
import { newId } from '../../platform/util/ids.js';

/**
 * Base voices by engine, first those that shift pitch natively and stay clear doing it (Flite, Pico),
 * then Festival (its HTS voices are shifted afterwards) and eSpeak; Kokoro only when installed.
 */
const ENGINE_ORDER: readonly EngineId[] = ['kokoro', 'rhvoice', 'flite', 'pico', 'festival', 'espeak'];
/** Kokoro designs blend the chosen voice with the next one in rank. */
const KOKORO_BLEND: [number, number] = [0.65, 0.35];

const DesignRequestSchema = Type.Object({ ...DesignInputSchema.properties, name: Type.String() });
export type DesignRequest = Static<typeof DesignRequestSchema>;
export const DESIGN_JOB = jobKind('design', DesignRequestSchema);

export interface DesignDeps {
  engines: EngineClient;
  queue: JobQueue;
  voices: VoiceRepository;
  voiceFiles: VoiceFiles;
  modelsDir: string;
  presets(): Promise<SpeakingVoice[]>;
}

/**
 * Voices from a description, as jobs: the description's attributes choose a base voice (a Kokoro
 * blend where installed) and set the targets of the conversion chain; the pitch shift is fitted to
 * the base voice's measured pitch, and the design's own pitch and rate are measured and recorded.
 */
export class DesignService {
  private readonly baseRates = new BaseRates();

  constructor(private readonly deps: DesignDeps) {
    deps.queue.register(DESIGN_JOB, (payload, context) => this.run(payload, context));
  }

  submit(request: DesignRequest, ownerKeyId: string): JobRecord {
    return this.deps.queue.submit({ kind: DESIGN_JOB, ownerKeyId, payload: request });
  }

  async create(request: DesignRequest, ownerKeyId: string): Promise<{ job: JobRecord; result: Record<string, unknown> }> {
    const done = await completedJob(this.deps.queue, this.submit(request, ownerKeyId).id);
    return { job: done, result: done.result! };
  }

  cancel(jobId: string | undefined, ownerKeyId: string): Promise<CancelledJob[]> {
    return cancelOwnJobs(this.deps.queue, [DESIGN_JOB.name], ownerKeyId, jobId, 'design');
  }

  private async run(request: DesignRequest, context: JobRunContext): Promise<Record<string, unknown>> {
    const { attributes, understood, ignored } = designAttributes(request);
    const targets = designTargets(attributes, request.seed);
    context.progress(0.1, 'choosing a base voice');
    const { base, partner } = await this.baseVoices(attributes, request);
    const tools = { engines: this.deps.engines, signal: context.signal };
    const style = partner ? await this.blend(base, partner, context.signal) : undefined;
    const speak = async (fit: VoiceFit) => {
      const spoken = await speakProbe(tools, base, request.language, { ...(style ? { style } : {}), pitch: fit.enginePitch, speed: fit.engineSpeed });
      return convertVoice(spoken, fit.conversion, context.signal);
    };
    const render = async (fit: VoiceFit) => analyseSpeech(this.deps.engines, await speak(fit), context.signal);
    const pitched = await this.fitPitch(targets, base, render, context);
    context.progress(0.85, 'checking intelligibility');
    // A blend speaks as its two voices together: its own plain rendering, its own base rate.
    const plain = { voice: base, id: partner ? `${base.id}+${partner.id}` : base.id, style };
    const clear = await this.keepWords(pitched.fit, speak, plain, request.language, context.signal);
    const analysis = clear.fit === pitched.fit ? pitched.analysis : await render(clear.fit);
    context.progress(0.9, 'saving');
    const { enginePitch, engineSpeed, conversion } = clear.fit;
    const rendering: VoiceRendering = {
      ...(style ? { style: { file: 'style.f32' } } : {}),
      ...(enginePitch === 1 ? {} : { pitch: enginePitch }),
      speed: engineSpeed,
      conversion,
    };
    const files = new Map<string, Uint8Array>(style ? [['style.f32', styleToBytes(style)]] : []);
    const voice = this.record(request, attributes, base, {
      design: {
        understood,
        ignored_words: ignored,
        attributes,
        seed: request.seed ?? null,
        base_voice: base.id,
        blend: partner ? blendOf(base, partner) : null,
        targets: { f0_median_hz: targets.f0Hz, formant_scale: targets.formantScale, tempo: targets.tempo },
      },
      measured: {
        f0_median_hz: roundOrNull(analysis.pitch.medianHz, 2),
        articulation_rate: roundOrNull(analysis.rate.articulationRate, 2),
        base_f0_median_hz: roundOrNull(pitched.baseAnalysis.pitch.medianHz, 2),
      },
      parameters: { engine_pitch: enginePitch, engine_speed: engineSpeed, conversion: publicConversion(conversion) },
      ...publicIntelligibility(clear.intelligibility),
      warnings: intelligibilityWarnings(clear.intelligibility),
      rendering,
    });
    await saveCustomVoice(this.deps, voice, files, [], context.signal);
    const { measured, intelligibility, baseline_intelligibility, intelligibility_measure, warnings } = voice.settings;
    return {
      voice_id: voice.id,
      base_voice: base.id,
      understood,
      ignored_words: ignored,
      measured,
      intelligibility,
      baseline_intelligibility,
      intelligibility_measure,
      warnings,
    };
  }

  /** The targets' tempo, formants and spectrum, and the pitch shift fitted to the base voice's measured pitch. */
  private async fitPitch(targets: DesignTargets, base: SpeakingVoice, render: (fit: VoiceFit) => Promise<VoiceAnalysis>, context: JobRunContext) {
    const range = (await this.deps.engines.capabilities(base.engine, { signal: context.signal })).pitch;
    let fit: VoiceFit = {
      enginePitch: 1,
      engineSpeed: Math.min(2, Math.max(0.5, targets.tempo)),
      conversion: { semitones: 0, formantScale: targets.formantScale, tempo: 1, equalizer: targets.equalizer },
    };
    context.progress(0.3, 'measuring the base voice');
    const baseAnalysis = await render(fit);
    let analysis = baseAnalysis;
    // Two pitch corrections: the engine's native pitch is not exactly proportional.
    for (const fraction of [0.5, 0.7]) {
      context.progress(fraction, 'fitting pitch');
      const ratio = targets.f0Hz / analysis.pitch.medianHz;
      if (Number.isFinite(ratio) && ratio > 0) fit = withPitch(fit, ratio, range);
      analysis = await render(fit);
    }
    return { fit, analysis, baseAnalysis };
  }

  /**
   * The fit, or a milder one (formants and spectrum half-way back) when the fit lost words against
   * the base voice speaking plainly; when neither keeps them, the clearer, with a warning.
   */
  private async keepWords(
    fit: VoiceFit,
    speak: (fit: VoiceFit) => Promise<Pcm>,
    base: { voice: SpeakingVoice; id: string; style: Float32Array | undefined },
    language: string,
    signal: AbortSignal,
  ): Promise<{ fit: VoiceFit; intelligibility?: Intelligibility }> {
    const check = (await recognitionFor(this.deps.engines, this.deps.modelsDir, language, signal, this.baseRates)).intelligibility;
    if (!check) return { fit };
    const tools = { engines: this.deps.engines, signal };
    const plain = { id: base.id, probe: () => speakProbe(tools, base.voice, language, base.style ? { style: base.style } : {}) };
    async function* fits() {
      yield fit;
      yield milderFit(fit);
    }
    const found = await firstIntelligible(fits(), async (candidate) => check.measure(await speak(candidate), plain));
    return { fit: found!.chosen, intelligibility: found!.intelligibility };
  }

  private async baseVoices(attributes: DesignAttributes, request: DesignRequest): Promise<{ base: SpeakingVoice; partner?: SpeakingVoice }> {
    const presets = (await this.deps.presets()).filter((voice) => voice.type === 'preset' && speaksLanguage(voice, request.language));
    const kokoro = (await engineAvailable(this.deps.engines, 'kokoro')) ? presets.filter((voice) => voice.engine === 'kokoro') : [];
    const pool = kokoro.length > 0 ? kokoro : presets.filter((voice) => ENGINE_ORDER.includes(voice.engine) && voice.engine !== 'kokoro');
    const base = chooseBaseVoice(pool, attributes, request.language, ENGINE_ORDER, request.seed);
    if (!base) throw new ApiError(422, 'language_not_supported', `No installed voice speaks ${request.language}`, { language: request.language });
    if (kokoro.length === 0) return { base };
    const partner = chooseBaseVoice(
      pool.filter((voice) => voice.id !== base.id),
      attributes,
      request.language,
      ENGINE_ORDER,
      request.seed,
    );
    return { base, partner };
  }

  private async blend(base: SpeakingVoice, partner: SpeakingVoice, signal: AbortSignal): Promise<Float32Array> {
    const styles = await Promise.all([base, partner].map((voice) => this.deps.engines.voiceVector('kokoro', voice.engineVoice, { signal })));
    return mixStyles(styles, KOKORO_BLEND);
  }

  private record(request: DesignRequest, attributes: DesignAttributes, base: SpeakingVoice, settings: Record<string, unknown>): VoiceRecord {
    return newCustomVoice({
      id: newId('voice', 12),
      type: 'design',
      name: request.name,
      engine: base.engine,
      engineVoice: base.engineVoice,
      language: request.language,
      gender: attributes.gender ?? base.gender ?? null,
      description: request.description,
      settings,
    });
  }
}

/** The Kokoro blend of a design with a partner voice, as its settings record it. */
function blendOf(base: SpeakingVoice, partner: SpeakingVoice): { voice: string; weight: number }[] {
  return [
    { voice: base.id, weight: KOKORO_BLEND[0] },
    { voice: partner.id, weight: KOKORO_BLEND[1] },
  ];
}
