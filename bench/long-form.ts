import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Config } from '../src/platform/config.js';
import { createServices } from '../src/app/services.js';
import { round, seconds } from './measure.js';
import { LONG_TEXT } from './texts.js';

/** Voices to measure long-form generation with, fast to slow. */
const VOICES = ['pico:en-US', 'espeak:mb-us1', 'festival:cmu_us_slt_arctic_hts'];

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
      const start = process.hrtime.bigint();
      let firstChunk: number | undefined;
      const unsubscribe = services.events.subscribe((event) => {
        if (event.type === 'job.progress' && event.data.stage === 'chunk_completed' && firstChunk === undefined) firstChunk = seconds(start);
      });
      const { task, job, chunks } = await services.longForm.start([{ voice, text: LONG_TEXT, language: 'en-US' }], {}, 'bench');
      await services.queue.wait(job.id);
      const total = seconds(start);
      unsubscribe();
      const audio = services.longForm.chunksOf(services.tasks.owned(task.id, 'bench')).reduce((sum, chunk) => sum + (chunk.takes.at(-1)?.duration ?? 0), 0);
      rows.push({
        voice: voiceId,
        chunks: chunks.length,
        first_chunk_s: round(firstChunk ?? total),
        total_s: round(total),
        audio_s: round(audio, 1),
        rtf: round(total / audio),
      });
    }
    return rows;
  } finally {
    await services.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}
