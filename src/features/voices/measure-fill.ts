import type { JobQueue } from '../../platform/jobs/queue.js';
import type { Log } from '../../platform/log.js';
import type { PreviewService } from './previews.js';
import type { VoiceService } from './service.js';
import type { VoiceRepository } from './voice-repository.js';

/** How often an idle fill looks again for presets to measure, and a busy queue for idleness. */
const RECHECK_MS = 5 * 60 * 1000;
const BUSY_RECHECK_MS = 5 * 1000;

export interface MeasureFillOptions {
  voices: Pick<VoiceService, 'list'>;
  repository: Pick<VoiceRepository, 'unmeasuredPresets'>;
  previews: Pick<PreviewService, 'preview'>;
  queue: Pick<JobQueue, 'status'>;
  log: Log;
  /** Seconds after start before the first preset is measured (TIMBRE_MEASURE_VOICES_AFTER_SECONDS); 0: never. */
  afterSeconds: number;
}

/**
 * Gives every preset its sample, measured (for the library's pitch and brightness tags), in the
 * background: one voice at a time through the normal preview path (so the sample is kept too), and
 * only while the compute queue has nothing running or waiting, so at most one short preview is
 * ever ahead of a request's job. Presets that fail are left for the next start.
 */
export class VoiceMeasureFill {
  private timer: NodeJS.Timeout | undefined;
  private current: Promise<void> | undefined;
  private stopped = false;
  private readonly failed = new Set<string>();

  constructor(private readonly options: MeasureFillOptions) {}

  start(): void {
    if (this.options.afterSeconds > 0) this.schedule(this.options.afterSeconds * 1000);
  }

  /** Starts nothing more; resolves once the preview under way (aborted when the queue closes) has settled. */
  stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    return this.current ?? Promise.resolve();
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.current = this.step().then(
        (nextMs) => this.schedule(nextMs),
        (error: unknown) => {
          this.options.log.warn({ err: error }, 'measuring the preset voices stopped until the next check');
          this.schedule(RECHECK_MS);
        },
      );
    }, ms).unref();
  }

  /** Measures one preset when the queue is idle; answers when to look again. */
  private async step(): Promise<number> {
    const { running, queued } = this.options.queue.status();
    if (running.length + queued.length > 0) return BUSY_RECHECK_MS;
    // Listing brings the presets the engines offer into the table first.
    await this.options.voices.list({ type: 'preset', limit: 1, offset: 0 });
    const [voiceId] = this.options.repository.unmeasuredPresets([...this.failed], 1);
    if (voiceId === undefined || this.stopped) return RECHECK_MS;
    try {
      await this.options.previews.preview(voiceId, null);
    } catch (error) {
      this.failed.add(voiceId);
      if (!this.stopped) this.options.log.warn({ err: error, voiceId }, 'the sample of a preset could not be made to measure it');
    }
    return 0;
  }
}
