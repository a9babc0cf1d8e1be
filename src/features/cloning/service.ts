import { Type, type Static } from 'typebox';
import { jobKind } from '../../platform/jobs/kinds.js';
import { mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { encodeWav } from '../../platform/audio/wav.js';
import type { EngineClient } from '../../platform/engines/host/calls.js';
import type { JobQueue } from '../../platform/jobs/queue.js';
import type { JobRecord, JobRunContext } from '../../platform/jobs/types.js';
import type { VoiceFiles } from '../../platform/speech/voice-files.js';
import { type VoiceRecord, type VoiceRepository, type VoiceSampleRecord, newCustomVoice, saveCustomVoice } from '../voices/index.js';
import { checkSingleSpeaker, SampleIntake, SampleSourceSchema, type IntakeLimits, type PreparedSample } from './intake.js';
import { chooseMethod, CLONE_METHODS, methodOptions, runMethod, type CloneMethod, type MethodOutcome } from './methods.js';
import { buildTarget, type CloneTarget } from './target.js';
import { engineAvailable } from '../../platform/engines/inventory.js';
import { cancelOwnJobs, type CancelledJob } from '../../platform/jobs/job-cancel.js';
import { completedJob } from '../../platform/jobs/job-errors.js';
import type { SpeakingVoice } from '../../platform/speech/speech.js';
import { SimilarityMeasure } from './voice-similarity.js';
import { BaseRates, publicIntelligibility } from './intelligibility.js';
import { recognitionFor } from './recognition.js';
import { roundOrNull } from '../../platform/util/round.js';
import { newId } from '../../platform/util/ids.js';

const CloneRequestSchema = Type.Object({
  name: Type.String(),
  language: Type.String(),
  description: Type.Optional(Type.String()),
  gender: Type.Optional(Type.Enum(['female', 'male'])),
  method: Type.Optional(Type.Enum(CLONE_METHODS)),
  /** Files in the request's upload folder (`uploadId`), or assets' files, with regions for clips. */
  samples: Type.Array(SampleSourceSchema),
  /** Upload folder of this request, removed when the job ends. */
  uploadId: Type.Optional(Type.String()),
});
export type CloneRequest = Static<typeof CloneRequestSchema>;
export const CLONE_JOB = jobKind('clone', CloneRequestSchema);

export interface CloneDeps {
  engines: EngineClient;
  queue: JobQueue;
  voices: VoiceRepository;
  voiceFiles: VoiceFiles;
  modelsDir: string;
  dataDir: string;
  presets(): Promise<SpeakingVoice[]>;
  limits: IntakeLimits;
  /** The built-in engines whose presets the built-in method starts from. */
  baseEngines: readonly string[];
}

/**
 * Voice cloning as jobs on the compute queue: sample intake, the target's analysis, the best
 * available method (or the requested one), a measured similarity, and the voice stored with its
 * processed samples, embedding and fitted parameters. A failed or cancelled job leaves no voice.
 */
export class CloneService {
  private readonly intake: SampleIntake;
  private readonly baseRates = new BaseRates();

  constructor(private readonly deps: CloneDeps) {
    this.intake = new SampleIntake({ engines: deps.engines, vadInstalled: () => engineAvailable(deps.engines, 'silero-vad') }, deps.limits);
    deps.queue.register(CLONE_JOB, (payload, context) => this.run(payload, context));
  }

  /** A new folder for one request's uploads; the job removes it when it ends. */
  async newUploadFolder(): Promise<{ uploadId: string; path: string }> {
    const uploadId = newId('upload');
    const path = this.uploadPath(uploadId);
    await mkdir(path, { recursive: true });
    return { uploadId, path };
  }

  async discardUploads(uploadId: string | undefined): Promise<void> {
    if (uploadId) await rm(this.uploadPath(uploadId), { recursive: true, force: true });
  }

  submit(request: CloneRequest, ownerKeyId: string): JobRecord {
    const job = this.deps.queue.submit({ kind: CLONE_JOB, ownerKeyId, payload: request });
    // Also when the job is cancelled before it runs, its uploads go.
    void this.deps.queue.wait(job.id).finally(() => this.discardUploads(request.uploadId));
    return job;
  }

  async create(request: CloneRequest, ownerKeyId: string): Promise<{ job: JobRecord; result: Record<string, unknown> }> {
    const done = await completedJob(this.deps.queue, this.submit(request, ownerKeyId).id);
    return { job: done, result: done.result! };
  }

  cancel(jobId: string | undefined, ownerKeyId: string): Promise<CancelledJob[]> {
    return cancelOwnJobs(this.deps.queue, [CLONE_JOB.name], ownerKeyId, jobId, 'clone');
  }

  /** Upload folders of jobs that no longer wait (a restart lost their job) are removed. */
  async sweepUploads(): Promise<void> {
    const waiting = new Set(
      this.deps.queue.status().queued.flatMap((view) => {
        const uploadId = this.deps.queue.payloadOf(CLONE_JOB, view.job_id)?.uploadId;
        return uploadId ? [uploadId] : [];
      }),
    );
    const folders = await readdir(join(this.deps.dataDir, 'clone-uploads')).catch(() => [] as string[]);
    await Promise.all(
      folders.filter((name) => !waiting.has(name)).map((name) => rm(join(this.deps.dataDir, 'clone-uploads', name), { recursive: true, force: true })),
    );
  }

  private uploadPath(uploadId: string): string {
    if (!/^upload_[A-Za-z0-9_-]+$/.test(uploadId)) throw new Error(`not an upload id: ${uploadId}`);
    return join(this.deps.dataDir, 'clone-uploads', uploadId);
  }

  private async run(request: CloneRequest, context: JobRunContext): Promise<Record<string, unknown>> {
    try {
      const samples: PreparedSample[] = [];
      for (const [i, source] of request.samples.entries()) {
        context.progress((0.2 * i) / request.samples.length, 'checking samples');
        samples.push(await this.intake.prepare(source, context.signal));
      }
      const speakers = await SimilarityMeasure.best(this.deps.engines, this.deps.modelsDir, context.signal);
      const measure = SimilarityMeasure.fitting(this.deps.engines, context.signal);
      const report = await SimilarityMeasure.reporting(this.deps.engines, this.deps.modelsDir, context.signal);
      context.progress(0.2, 'analysing the voice');
      const warnings = [...samples.flatMap((sample) => sample.warnings), ...(await checkSingleSpeaker(samples, speakers))];
      const target = await buildTarget(samples, request.language, { measure, report });
      const options = await methodOptions(
        request.language,
        await this.deps.presets(),
        (engine) => engineAvailable(this.deps.engines, engine),
        this.deps.baseEngines,
      );
      const { method, reason } = chooseMethod(options, request.method, request.language);
      const tools = {
        engines: this.deps.engines,
        measure,
        report,
        signal: context.signal,
        progress: (fraction: number, stage: string) => context.progress(fraction, stage),
        styleOf: (voiceId: string) => this.deps.engines.voiceVector('kokoro', voiceId, { signal: context.signal }),
        ...(await recognitionFor(this.deps.engines, this.deps.modelsDir, request.language, context.signal, this.baseRates)),
      };
      const fitted = await runMethod(method, options, tools, target, samples);
      context.progress(0.95, 'saving');
      const voice = await this.save(
        request,
        samples,
        target,
        fitted,
        { method, reason, measure: report.engine, fitMeasure: measure.engine, warnings: [...warnings, ...fitted.warnings] },
        context.signal,
      );
      return cloneResult(voice);
    } finally {
      await this.discardUploads(request.uploadId);
    }
  }

  private async save(
    request: CloneRequest,
    samples: PreparedSample[],
    target: CloneTarget,
    fitted: MethodOutcome,
    about: CloneAbout,
    signal: AbortSignal,
  ): Promise<VoiceRecord> {
    const id = newId('voice', 12);
    const at = new Date().toISOString();
    const files = new Map(fitted.files);
    const sampleRows: VoiceSampleRecord[] = samples.map((sample, i) => {
      files.set(`${i + 1}.wav`, encodeWav(sample.pcm));
      return {
        id: `${id}_s${i + 1}`,
        voiceId: id,
        path: this.deps.voiceFiles.relative(id, `${i + 1}.wav`),
        duration: sample.speechSeconds,
        sampleRate: sample.pcm.sampleRate,
        transcript: sample.transcript,
        createdAt: at,
      };
    });
    const settings = cloneSettings(samples, target, fitted, about);
    const record = newCustomVoice({
      id,
      type: 'clone',
      name: request.name,
      engine: fitted.engine,
      engineVoice: fitted.engineVoice,
      language: request.language,
      gender: request.gender ?? null,
      description: request.description ?? null,
      settings,
    });
    await saveCustomVoice(this.deps, record, files, sampleRows, signal);
    return record;
  }
}

interface CloneAbout {
  method: CloneMethod;
  reason: string;
  measure: string;
  fitMeasure: string;
  warnings: unknown[];
}

/** What a clone keeps of how it was made: method, scores, the target's voiceprint, its rendering. */
function cloneSettings(samples: PreparedSample[], target: CloneTarget, fitted: MethodOutcome, about: CloneAbout): Record<string, unknown> {
  return {
    clone_method: about.method,
    method_reason: about.reason,
    similarity: fitted.similarity,
    baseline_similarity: fitted.baseline?.similarity ?? null,
    similarity_measure: about.measure,
    fit_similarity: fitted.fitSimilarity,
    baseline_fit_similarity: fitted.baseline?.fitSimilarity ?? null,
    fit_measure: about.fitMeasure,
    ...publicIntelligibility(fitted.intelligibility),
    nearest_preset: fitted.baseline?.voice ?? null,
    starting_voice: fitted.startingVoice,
    held_out_evaluation: target.heldOut,
    speech_detector: samples[0]!.speechDetector,
    parameters: fitted.parameters,
    target: targetSummary(target),
    embedding: { method: target.print.method, vector: Array.from(target.print.vector, (value) => Math.round(value * 1e5) / 1e5) },
    warnings: about.warnings,
    rendering: fitted.rendering,
  };
}

/** What the job's result (and the create response) say about the new clone. */
export function cloneResult(voice: VoiceRecord): Record<string, unknown> {
  const settings = voice.settings;
  return {
    voice_id: voice.id,
    clone_method: settings.clone_method,
    method_reason: settings.method_reason,
    similarity: settings.similarity,
    baseline_similarity: settings.baseline_similarity,
    similarity_measure: settings.similarity_measure,
    fit_similarity: settings.fit_similarity,
    fit_measure: settings.fit_measure,
    intelligibility: settings.intelligibility,
    baseline_intelligibility: settings.baseline_intelligibility,
    intelligibility_measure: settings.intelligibility_measure,
    warnings: settings.warnings,
  };
}

function targetSummary(target: CloneTarget) {
  const { pitch, formants, spectrum, rate } = target.analysis;
  return {
    f0_median_hz: roundOrNull(pitch.medianHz, 2),
    f0_range_semitones: roundOrNull(pitch.rangeSemitones, 2),
    formants_hz: formants.meanHz.map((hz) => roundOrNull(hz, 2)),
    spectral_tilt_db_per_octave: roundOrNull(spectrum.tiltDbPerOctave, 2),
    articulation_rate: roundOrNull(rate.articulationRate, 2),
    speech_seconds: roundOrNull(target.analysis.durationSeconds, 2),
  };
}
