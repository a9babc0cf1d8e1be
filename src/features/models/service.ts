import { Type, type Static } from 'typebox';
import { ApiError } from '../../platform/errors.js';
import { modelLoads } from '../../platform/engines/registry.js';
import { jobKind } from '../../platform/jobs/kinds.js';
import type { JobQueue } from '../../platform/jobs/queue.js';
import type { JobRecord, JobRunContext } from '../../platform/jobs/types.js';
import { CatalogError, findModel, type CatalogModel } from '../../platform/models/catalog.js';
import { DownloadError, VerificationError } from '../../platform/models/download.js';
import { installModel } from '../../platform/models/install.js';
import { listModels, modelStatus, removeModel, type ModelStatus } from '../../platform/models/manager.js';
import type { CatalogModelView } from './schemas.js';

const ModelInstallPayloadSchema = Type.Object({ model_id: Type.String() });
type ModelInstallPayload = Static<typeof ModelInstallPayloadSchema>;
export const MODEL_INSTALL_JOB = jobKind('model-install', ModelInstallPayloadSchema, { computes: false });

/** The share of an install's progress that is the download; unpacking and checking take the rest. */
const DOWNLOAD_SHARE = 0.9;
/** A download of unknown size reports its progress once per this many bytes. */
const UNSIZED_PROGRESS_STEP = 1 << 20;

export interface ModelServiceDeps {
  queue: JobQueue;
  modelsDir: string;
  /** Reads the engines' voices again, so that an installed or removed model shows in the voice library at once. */
  refreshVoices: () => Promise<void>;
}

function catalogModel(modelId: string): CatalogModel {
  try {
    return findModel(modelId);
  } catch (error) {
    if (error instanceof CatalogError) throw new ApiError(404, 'model_not_found', `No model ${modelId} in the catalog`, { model_id: modelId });
    throw error;
  }
}

/** The catalog's description up to its first colon ("Kokoro-82M v1.0 int8: 48 preset voices…"). */
const displayName = (model: CatalogModel) => model.description.split(': ')[0] ?? model.name;

/** What the download weighs when the catalog pins it: the archive and any file published beside it. */
function downloadBytes(model: CatalogModel): number | null {
  const sizes = [model.archive.bytes, ...(model.extras ?? []).map((extra) => extra.bytes)];
  return sizes.every((size) => size !== null) ? sizes.reduce<number>((sum, size) => sum + (size ?? 0), 0) : null;
}

function present({ model, state, sizeBytes, languages }: ModelStatus, install: JobRecord | undefined): CatalogModelView {
  return {
    id: model.name,
    name: displayName(model),
    description: model.description,
    engine: model.engine,
    kind: model.kind,
    languages,
    license: model.license,
    license_note: model.licenseNote ?? null,
    download_bytes: downloadBytes(model),
    size_bytes: state === 'not installed' ? null : sizeBytes,
    installed: state === 'installed',
    state,
    install: install ? { job_id: install.id, state: install.state, progress: install.progress, stage: install.stage } : null,
  };
}

/** A failed download or a refused file, told with its own code; anything else stays what it was. */
function installError(modelId: string, error: unknown): unknown {
  const details = { model_id: modelId };
  if (error instanceof VerificationError) return new ApiError(502, 'model_verification_failed', error.message, details);
  if (error instanceof DownloadError) return new ApiError(502, 'model_download_failed', error.message, details);
  return error;
}

/**
 * The neural models of the catalog over HTTP: listing, installing as a `model-install` job on the
 * queue (progress on /ws, cancelled like any job, leaving nothing behind), and removing. Installs
 * go only where `timbre models install` goes: the catalog's URLs, checked against its pins.
 */
export class ModelService {
  constructor(private readonly deps: ModelServiceDeps) {
    deps.queue.register(MODEL_INSTALL_JOB, (payload, context) => this.runInstall(payload, context));
  }

  async list(): Promise<CatalogModelView[]> {
    const statuses = await listModels(this.deps.modelsDir);
    return statuses.map((status) => present(status, this.activeInstall(status.model.name)));
  }

  /** The install job of the model: a new one, or the one already queued or running. */
  async install(modelId: string, ownerKeyId: string): Promise<JobRecord> {
    const model = catalogModel(modelId);
    const status = await modelStatus(this.deps.modelsDir, model);
    // Checked after the await, right before submitting, so two requests at once share one job.
    const running = this.activeInstall(model.name);
    if (running) return running;
    if (status.state === 'installed') throw new ApiError(409, 'model_installed', `${model.name} is already installed`, { model_id: model.name });
    return this.deps.queue.submit({ kind: MODEL_INSTALL_JOB, ownerKeyId, payload: { model_id: model.name } satisfies ModelInstallPayload });
  }

  async remove(modelId: string): Promise<void> {
    const model = catalogModel(modelId);
    const running = this.activeInstall(model.name);
    if (running)
      throw new ApiError(409, 'model_install_running', `${model.name} is being installed; cancel job ${running.id} first`, {
        model_id: model.name,
        job_id: running.id,
      });
    if ((await modelStatus(this.deps.modelsDir, model)).state === 'not installed')
      throw new ApiError(409, 'model_not_installed', `${model.name} is not installed`, { model_id: model.name });
    await removeModel(this.deps.modelsDir, model.name);
    await this.deps.refreshVoices();
  }

  private activeInstall(modelId: string): JobRecord | undefined {
    const { queue } = this.deps;
    return queue.active((record) => queue.payloadOf(MODEL_INSTALL_JOB, record.id)?.model_id === modelId)[0];
  }

  private async runInstall({ model_id: modelId }: ModelInstallPayload, context: JobRunContext): Promise<Record<string, unknown>> {
    const { modelsDir } = this.deps;
    context.progress(0, 'downloading');
    let reported = -1;
    const onProgress = (received: number, total: number | null) => {
      const step = total ? Math.floor((100 * received) / total) : Math.floor(received / UNSIZED_PROGRESS_STEP);
      if (step === reported) return;
      reported = step;
      context.progress(total ? (DOWNLOAD_SHARE * received) / total : 0, 'downloading', { downloaded_bytes: received, total_bytes: total });
    };
    const result = await installModel(modelsDir, modelId, {
      validate: modelLoads,
      signal: context.signal,
      onProgress,
      onUnpacking: () => context.progress(DOWNLOAD_SHARE, 'unpacking'),
    }).catch((error: unknown) => {
      throw installError(modelId, error);
    });
    // A cancel that arrived as the folder was put in place still ends the job cancelled: undo the install.
    if (context.signal.aborted) {
      await removeModel(modelsDir, modelId);
      throw context.signal.reason;
    }
    if (result.status !== 'installed') throw new ApiError(502, 'model_download_failed', result.message, { model_id: modelId });
    await this.deps.refreshVoices();
    return { model_id: modelId, verification: result.verification, languages: result.languages };
  }
}
