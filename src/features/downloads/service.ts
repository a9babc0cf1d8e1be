import { mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Type, type Static } from 'typebox';
import { jobKind } from '../../platform/jobs/kinds.js';
import { probeAudio } from '../../platform/audio/probe.js';
import { ApiError } from '../../platform/errors.js';
import { diskIsFull, insufficientStorage } from '../../platform/storage-full.js';
import type { JobQueue } from '../../platform/jobs/queue.js';
import type { JobRecord, JobRunContext } from '../../platform/jobs/types.js';
import { presentAsset, type AssetService } from '../assets/index.js';
import { startGuardProxy } from './download-proxy.js';
import { jobErrorToApiError } from '../../platform/jobs/job-errors.js';
import { assertDownloadable } from './url-guard.js';
import { classifyFailure, runYtDlp, tooLarge, tooLong } from './yt-dlp.js';

export interface DownloadInput {
  url: string;
  /** Seconds into the media where the audio starts. */
  start?: number;
  /** Seconds into the media where the audio ends; after `start`. */
  end?: number;
}

const DownloadPayloadSchema = Type.Object({
  url: Type.String(),
  start: Type.Optional(Type.Number()),
  end: Type.Optional(Type.Number()),
  ownerKeyId: Type.String(),
});
type DownloadPayload = Static<typeof DownloadPayloadSchema>;
export const DOWNLOAD_JOB = jobKind('download', DownloadPayloadSchema);

export interface DownloadDeps {
  queue: JobQueue;
  assets: Pick<AssetService, 'importFile' | 'delete'>;
  allowPrivate: boolean;
  maxSeconds: number;
  maxBytes: number;
  /**
   * Folder for unfinished downloads. It should be on the asset store's file system, so importing
   * the finished file is a rename (an upload's temporary file is placed the same way).
   */
  tempRoot: string;
  /** yt-dlp's `--socket-timeout`, also the guard proxy's connect timeout. */
  socketTimeoutSeconds?: number;
}

const DEFAULT_SOCKET_TIMEOUT_SECONDS = 30;
/** Probed durations are rounded by containers; a few hundredths over the limit is not "too long". */
const DURATION_TOLERANCE_SECONDS = 0.5;

/** HTTP status of the download error codes; the shared table only knows engine codes. */
const STATUS_BY_CODE: Record<string, number> = {
  invalid_url: 400,
  url_scheme_not_allowed: 400,
  url_address_not_allowed: 403,
  unsupported_url: 422,
  media_too_long: 413,
  media_too_large: 413,
  host_unreachable: 502,
  download_failed: 502,
  download_timeout: 504,
};

/**
 * Audio from video and media URLs as assets: each request is a `download` job on the queue that
 * runs yt-dlp through the guard proxy into a temporary folder, checks the limits and imports the
 * audio. Cancelling kills yt-dlp and removes the folder; no asset is left.
 */
export class DownloadService {
  constructor(private readonly deps: DownloadDeps) {
    deps.queue.register(DOWNLOAD_JOB, (payload, context) => this.run(payload, context));
  }

  /** Refuses a bad URL or section before queueing, so obvious refusals cost no job. */
  async submit(input: DownloadInput, ownerKeyId: string): Promise<JobRecord> {
    checkSection(input, this.deps.maxSeconds);
    await assertDownloadable(input.url, { allowPrivate: this.deps.allowPrivate });
    return this.deps.queue.submit({ kind: DOWNLOAD_JOB, ownerKeyId, payload: { ...input, ownerKeyId } satisfies DownloadPayload });
  }

  /** Waits for a submitted download: the job's result (`{asset_id, asset}`), or its error with its status. */
  async finish(jobId: string): Promise<Record<string, unknown>> {
    const job = await this.deps.queue.wait(jobId);
    if (job.state === 'completed') return job.result ?? {};
    const status = job.error ? STATUS_BY_CODE[job.error.code] : undefined;
    if (!job.error || status === undefined) throw jobErrorToApiError(job);
    throw new ApiError(status, job.error.code, job.error.message, { ...job.error.details, job_id: job.id });
  }

  private async run(payload: DownloadPayload, context: JobRunContext): Promise<Record<string, unknown>> {
    await mkdir(this.deps.tempRoot, { recursive: true });
    const dir = await mkdtemp(join(this.deps.tempRoot, 'timbre-download-'));
    try {
      const file = await this.fetch(payload, dir, context);
      context.progress(1, 'importing');
      const asset = await this.deps.assets.importFile(file, { origin: 'download', sourceUrl: payload.url }, payload.ownerKeyId);
      // A cancel that arrived during the import still ends the job cancelled: undo the asset.
      if (context.signal.aborted) {
        await this.deps.assets.delete(asset.id, payload.ownerKeyId);
        throw context.signal.reason;
      }
      // asset_id on top too: the job.completed event carries the result, so /ws clients see it at once.
      return { asset_id: asset.id, asset: presentAsset(asset) };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  /** Runs yt-dlp through a guard proxy of its own and returns the checked audio file. */
  private async fetch(payload: DownloadPayload, dir: string, context: JobRunContext): Promise<string> {
    const { maxSeconds, maxBytes } = this.deps;
    const socketTimeoutSeconds = this.deps.socketTimeoutSeconds ?? DEFAULT_SOCKET_TIMEOUT_SECONDS;
    const proxy = await startGuardProxy({ allowPrivate: this.deps.allowPrivate, connectTimeoutMs: socketTimeoutSeconds * 1000 });
    try {
      context.progress(0, 'downloading');
      const outcome = await runYtDlp({
        url: payload.url,
        dir,
        proxy: proxy.url,
        maxSeconds,
        maxBytes,
        socketTimeoutSeconds,
        start: payload.start,
        end: payload.end,
        signal: context.signal,
        // The last 10% is left for extracting and importing.
        onProgress: (downloaded, total) => {
          if (total) context.progress((0.9 * downloaded) / total, 'downloading', { downloaded_bytes: downloaded, total_bytes: total });
        },
        onStage: (stage) => context.progress(0.9, stage),
      });
      const file = await audioFile(dir);
      // The guard's refusal is the real cause of whatever yt-dlp reported about it.
      const refusal = proxy.refusal();
      if (refusal) throw refusal;
      if (outcome.code !== 0 || !file) throw (await diskIsFull(dir)) ? insufficientStorage() : classifyFailure(outcome.log, { maxSeconds, maxBytes });
      await checkLimits(file, this.deps, context.signal);
      return file;
    } finally {
      await proxy.close();
    }
  }
}

function checkSection(input: DownloadInput, maxSeconds: number): void {
  if (input.start !== undefined && input.end !== undefined && input.end <= input.start) {
    throw new ApiError(400, 'invalid_section', 'end must be after start', { start: input.start, end: input.end });
  }
  if (input.end !== undefined && input.end - (input.start ?? 0) > maxSeconds) throw tooLong(maxSeconds, input.end - (input.start ?? 0));
}

/** The one finished file yt-dlp left; its partial files end in `.part` or `.ytdl`. */
async function audioFile(dir: string): Promise<string | undefined> {
  const names = (await readdir(dir)).filter((name) => name.startsWith('audio.') && !/\.(part|ytdl)$/.test(name));
  return names.length === 1 ? join(dir, names[0]!) : undefined;
}

/** yt-dlp cannot know the duration of a plain media file before downloading it: probe the result. */
async function checkLimits(file: string, limits: { maxSeconds: number; maxBytes: number }, signal: AbortSignal): Promise<void> {
  if ((await stat(file)).size > limits.maxBytes) throw tooLarge(limits.maxBytes);
  const { duration } = await probeAudio(file, signal);
  if (duration !== null && duration > limits.maxSeconds + DURATION_TOLERANCE_SECONDS) throw tooLong(limits.maxSeconds, duration);
}
