import { readFile } from 'node:fs/promises';
import { removeDir } from '../test/helpers/timbre.js';
import { round, seconds, timed } from './measure.js';
import { startService } from './service.js';
import { FULL_TEXT } from './texts.js';

/** Long jobs to stand behind: the full-length text in each voice's language, and a sentence of it. */
const LONG_JOBS = [
  { voice: 'openjtalk:nitech-jp-atr503-m001', language: 'ja', text: FULL_TEXT.ja, sentence: 'こんにちは、今日はいい天気ですね。' },
  { voice: 'festival:cmu_us_slt_arctic_hts', language: 'en-US', text: FULL_TEXT.en, sentence: 'The quick brown fox jumps over the lazy dog.' },
  { voice: 'pico:en-US', language: 'en-US', text: FULL_TEXT.en, sentence: 'The quick brown fox jumps over the lazy dog.' },
];
/** The first one-sentence request is sent this long after the long job was queued, the next ones this long after each answer. */
const SHORT_FIRST_MS = 500;
const SHORT_EVERY_MS = 2000;
const MEMORY_POLL_MS = 100;

/** Resident memory of a process, in MiB (0 once it is gone). */
async function residentMiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kib = /^VmRSS:\s+(\d+)/m.exec(status)?.[1];
  return kib ? Number(kib) / 1024 : 0;
}

/** The children of a process (the engine hosts of the service). */
async function childrenOf(pid: number): Promise<number[]> {
  const children = await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8').catch(() => '');
  return children.split(/\s+/).filter(Boolean).map(Number);
}

/** The highest resident memory of the service, and of it with its engine hosts, until stopped. */
function memoryPeaks(pid: number) {
  const peaks = { service: 0, tree: 0 };
  const timer = setInterval(() => {
    void (async () => {
      const service = await residentMiB(pid);
      const children = await Promise.all((await childrenOf(pid)).map(residentMiB));
      peaks.service = Math.max(peaks.service, service);
      peaks.tree = Math.max(peaks.tree, service + children.reduce((sum, rss) => sum + rss, 0));
    })();
  }, MEMORY_POLL_MS);
  return { peaks, stop: () => clearInterval(timer) };
}

async function post(url: string, key: string, body: object): Promise<Response> {
  const response = await fetch(`${url}/api/generate/preset`, {
    method: 'POST',
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${response.status} ${await response.text()}`);
  return response;
}

/** Seconds one synchronous one-sentence request takes, to its last byte. */
async function shortRequest(url: string, key: string, job: (typeof LONG_JOBS)[number]): Promise<number> {
  const { seconds: taken } = await timed(async () => (await post(url, key, { voice_id: job.voice, text: job.sentence, language: job.language })).arrayBuffer());
  return taken;
}

async function taskState(url: string, key: string, taskId: string): Promise<{ status: string; duration: number | null }> {
  const response = await fetch(`${url}/api/tasks/${taskId}`, { headers: { 'x-api-key': key } });
  return (await response.json()) as { status: string; duration: number | null };
}

/**
 * One long job (the full-length text, queued with `async`), and one-sentence requests of the same
 * key and voice sent one after another while it runs: how long each waits, and the service's
 * peak memory meanwhile.
 */
async function behindLongJob(url: string, key: string, pid: number, job: (typeof LONG_JOBS)[number]) {
  const alone = await shortRequest(url, key, job);
  const memory = memoryPeaks(pid);
  const start = process.hrtime.bigint();
  const accepted = (await (await post(url, key, { voice_id: job.voice, text: job.text, language: job.language, async: true })).json()) as { task_id: string };
  const waits: number[] = [];
  let state = await taskState(url, key, accepted.task_id);
  while (state.status === 'queued' || state.status === 'running') {
    await new Promise((resolve) => setTimeout(resolve, waits.length === 0 ? SHORT_FIRST_MS : SHORT_EVERY_MS));
    state = await taskState(url, key, accepted.task_id);
    if (state.status === 'queued' || state.status === 'running') waits.push(await shortRequest(url, key, job));
  }
  const longSeconds = seconds(start);
  memory.stop();
  if (state.status !== 'completed') throw new Error(`${job.voice}: the long job ended ${state.status}`);
  const sorted = [...waits].sort((a, b) => a - b);
  return {
    voice: job.voice,
    long_chars: [...job.text].length,
    long_audio_s: round(state.duration ?? 0, 0),
    long_job_s: round(longSeconds, 1),
    short_alone_s: round(alone, 2),
    short_requests: waits.length,
    short_median_s: sorted.length ? round(sorted[Math.floor(sorted.length / 2)]!, 2) : null,
    short_max_s: sorted.length ? round(sorted.at(-1)!, 2) : null,
    service_peak_mib: Math.round(memory.peaks.service),
    with_hosts_peak_mib: Math.round(memory.peaks.tree),
  };
}

/**
 * Short requests behind a long one: per voice, a full-length (5,000-character) text queued, and
 * one-sentence requests of the same key and voice sent while it runs (goal: each answered within
 * 5 s), with the service's peak resident memory during the long job (goal: at most 400 MB).
 */
export async function benchFairness() {
  const { service, key } = await startService();
  try {
    const rows = [];
    for (const job of LONG_JOBS) {
      const voice = (await (await fetch(`${service.url}/api/voices/${encodeURIComponent(job.voice)}`, { headers: { 'x-api-key': key } })).json()) as {
        available?: boolean;
      };
      if (!voice.available) continue;
      rows.push(await behindLongJob(service.url, key, service.process.pid!, job));
    }
    return rows;
  } finally {
    await service.stop();
    await removeDir(service.dataDir);
  }
}
