import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Config } from '../src/platform/config.js';
import { createServices, type Services } from '../src/app/services.js';
import { round, seconds } from './measure.js';
import { LONG_TEXT } from './texts.js';

/** Voices to measure long-form generation with, fast to slow. */
const VOICES = ['pico:en-US', 'espeak:mb-us1', 'festival:cmu_us_slt_arctic_hts'];

type Voice = Parameters<Services['longForm']['start']>[0][number]['voice'];

export interface LongFormRun {
  chunks: number;
  /** Seconds from the start to the first chunk spoken, and to the whole task done. */
  firstChunk: number;
  total: number;
  /** Seconds of audio the chunks hold. */
  audio: number;
}

/** One long-form task of LONG_TEXT in one voice, start to finish; a task that does not complete throws. */
export async function runLongForm(services: Services, voice: Voice): Promise<LongFormRun> {
  const start = process.hrtime.bigint();
  let firstChunk: number | undefined;
  const unsubscribe = services.events.subscribe((event) => {
    if (event.type === 'job.progress' && event.data.stage === 'chunk_completed' && firstChunk === undefined) firstChunk = seconds(start);
  });
  try {
    const { task, job, chunks } = await services.longForm.start([{ voice, text: LONG_TEXT, language: 'en-US' }], {}, 'bench');
    const finished = await services.queue.wait(job.id);
    const total = seconds(start);
    if (finished.state !== 'completed') throw new Error(`The long-form task in ${voice.id} ended ${finished.state}: ${JSON.stringify(finished.error)}`);
    const audio = services.longForm.chunksOf(services.tasks.owned(task.id, 'bench')).reduce((sum, chunk) => sum + (chunk.takes.at(-1)?.duration ?? 0), 0);
    return { chunks: chunks.length, firstChunk: firstChunk ?? total, total, audio };
  } finally {
    unsubscribe();
  }
}

/**
 * The 2,000-character text through the real long-form path (queue, engine host, files): time to
 * the first chunk's audio and the real-time factor of the whole task.
 */
export async function benchLongForm(config: Config) {
  const dataDir = await mkdtemp(join(tmpdir(), 'timbre-bench-'));
  const services = createServices({ ...config, dataDir, logLevel: 'warn' });
  try {
    const rows = [];
    for (const voiceId of VOICES) {
      const voice = await services.voices.get(voiceId).catch(() => undefined);
      if (!voice?.available) continue;
      const run = await runLongForm(services, voice).catch((error: unknown) => {
        process.stdout.write(`skipped long-form ${voiceId}: ${error instanceof Error ? error.message : String(error)}\n`);
      });
      if (!run) continue;
      rows.push({
        voice: voiceId,
        chunks: run.chunks,
        first_chunk_s: round(run.firstChunk),
        total_s: round(run.total),
        audio_s: round(run.audio, 1),
        rtf: round(run.total / run.audio),
      });
    }
    return rows;
  } finally {
    await services.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}
