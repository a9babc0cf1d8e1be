import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Config } from '../src/platform/config.js';
import { CLONE_METHODS } from '../src/features/cloning/methods.js';
import { createServices } from '../src/app/services.js';
import { round, seconds } from './measure.js';

/**
 * Voice cloning through the real job path: creation time of each method that can run here, and
 * the similarity (by the measure the fit never saw, and by the fitting one) and intelligibility
 * each clone reached next to its baseline (the nearest unconverted preset), per reference clip. Methods that cannot run here are listed with the reason.
 */
export async function benchCloning(config: Config, clips: string[]) {
  const dataDir = await mkdtemp(join(tmpdir(), 'timbre-bench-clone-'));
  const services = createServices({ ...config, dataDir, logLevel: 'warn' });
  try {
    const rows = [];
    for (const method of CLONE_METHODS) {
      for (const clip of clips) {
        const start = process.hrtime.bigint();
        try {
          const { result } = await services.cloning.create({ name: `bench ${method}`, language: 'en', method, samples: [{ path: clip, index: 0 }] }, 'bench');
          rows.push({
            method,
            clip: clip.split('/').at(-1),
            create_s: round(seconds(start), 1),
            similarity: result.similarity,
            baseline: result.baseline_similarity,
            measure: result.similarity_measure,
            fit_similarity: result.fit_similarity,
            intelligibility: result.intelligibility,
            baseline_intelligibility: result.baseline_intelligibility,
            note: '',
          });
        } catch (error) {
          const details = (error as { details?: { missing?: Record<string, string> } }).details;
          rows.push({
            method,
            clip: clip.split('/').at(-1),
            create_s: null,
            similarity: null,
            baseline: null,
            measure: null,
            fit_similarity: null,
            intelligibility: null,
            baseline_intelligibility: null,
            note: details?.missing?.[method] ?? (error as Error).message,
          });
        }
      }
    }
    return rows;
  } finally {
    await services.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}
