import { request } from 'node:http';
import WebSocket from 'ws';
import { createTimbreClient, type TimbreClient } from '../src/client/index.js';
import { createKeyWithCli, removeDir, startTimbre } from '../test/helpers/timbre.js';
import { BARE_VOICES, bareWorkspace, type BareVoice } from './bare-engines.js';
import { round, seconds, timed } from './measure.js';
import { LONG_TEXT } from './texts.js';

/**
 * Rounds per voice; each ratio is the median of the rounds' own ratios, so a slow spell of the
 * machine hits both sides of one. Quick voices get more rounds, up to BARE_SECONDS of bare runs:
 * a tenth of a second swings by half between runs on a shared machine.
 */
const MIN_ROUNDS = 5;
const MAX_ROUNDS = 25;
const BARE_SECONDS = 5;

/** The real service on a free port, with no contract check, and a key no rate limit slows down. */
export async function startService() {
  const service = await startTimbre({ env: { TIMBRE_CONTRACT_CHECK: 'false' } });
  const limits = ['tts:generate', 'voices:read', 'ws:connect'].flatMap((scope) => ['--rate-limit', `${scope}=100000`]);
  const { key } = await createKeyWithCli(service.dataDir, 'bench', limits);
  return { service, key };
}

/** When each task's job completed, as /ws reports it. */
async function completions(url: string, key: string) {
  const socket = new WebSocket(`${url.replace('http', 'ws')}/ws`, { headers: { 'x-api-key': key } });
  const done = new Map<string, bigint>();
  const waiters = new Map<string, (at: bigint) => void>();
  socket.on('message', (raw) => {
    const event = JSON.parse(String(raw)) as { type: string; data: { task_id?: string } };
    const taskId = event.data.task_id;
    if (event.type !== 'job.completed' || !taskId) return;
    const at = process.hrtime.bigint();
    done.set(taskId, at);
    waiters.get(taskId)?.(at);
  });
  await new Promise((resolve) => socket.once('open', resolve));
  return {
    when: (taskId: string) => new Promise<bigint>((resolve) => (done.has(taskId) ? resolve(done.get(taskId)!) : waiters.set(taskId, resolve))),
    close: () => socket.close(),
  };
}

type Completions = Awaited<ReturnType<typeof completions>>;

/**
 * The whole text in one request (WAV), read to the last byte with node:http: fetch's own body
 * handling costs tens of milliseconds on a few megabytes, which is the client's, not the service's.
 */
async function onePiece(url: string, key: string, voiceId: string) {
  const body = JSON.stringify({ voice_id: voiceId, text: LONG_TEXT, language: 'en-US' });
  const { value, seconds: total } = await timed(
    () =>
      new Promise<{ status: number; taskId: string; error: string }>((resolve, reject) => {
        const headers = { 'x-api-key': key, 'content-type': 'application/json' };
        const sent = request(`${url}/api/generate/preset`, { method: 'POST', headers }, (response) => {
          // Counted, not kept: a client that writes the audio to a file holds no copy of it either.
          const ok = response.statusCode === 200;
          const errorBody: Buffer[] = [];
          response.on('data', (chunk: Buffer) => ok || errorBody.push(chunk));
          response.on('error', reject);
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 0, taskId: String(response.headers['x-task-id'] ?? ''), error: Buffer.concat(errorBody).toString() }),
          );
        });
        sent.on('error', reject);
        sent.end(body);
      }),
  );
  if (value.status !== 200) throw new Error(`${voiceId}: ${value.status} ${value.error}`);
  return { total, taskId: value.taskId };
}

/** The text as sentence chunks (`clone-chunked`), until /ws says the task completed. */
async function chunked(timbre: TimbreClient, events: Completions, voiceId: string): Promise<number> {
  const start = process.hrtime.bigint();
  const { data, error } = await timbre.POST('/api/generate/clone-chunked', { body: { voice_id: voiceId, text: LONG_TEXT, language: 'en-US' } });
  if (error) throw new Error(`${voiceId}: ${error.error.message}`);
  const end = await events.when(data.task_id);
  return Number(end - start) / 1e9;
}

/** The text streamed (`"stream": true`): seconds to the first audio byte and to the last. */
async function streamed(url: string, key: string, voiceId: string) {
  const start = process.hrtime.bigint();
  const response = await fetch(`${url}/api/generate/preset`, {
    method: 'POST',
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    body: JSON.stringify({ voice_id: voiceId, text: LONG_TEXT, language: 'en-US', stream: true }),
  });
  if (!response.ok || !response.body) throw new Error(`${voiceId}: ${response.status} ${await response.text()}`);
  let first: number | undefined;
  for await (const chunk of response.body) if (chunk.length > 0) first ??= seconds(start);
  return { first: first ?? seconds(start), total: seconds(start) };
}

/** The one-piece task's recorded stages, as columns. */
function stageColumns(stages: Record<string, number> | null) {
  const stage = (name: string) => (stages?.[`${name}_ms`] === undefined ? null : round(stages[`${name}_ms`]!, 1));
  return { queue: stage('queue'), text: stage('text'), engine: stage('engine'), encode: stage('encode'), store: stage('store') };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Interleaved rounds (bare, one piece, chunked, streamed), so background load hits all alike. */
async function measureVoice(
  timbre: TimbreClient,
  events: Completions,
  url: string,
  key: string,
  voice: BareVoice,
  bare: Awaited<ReturnType<typeof bareWorkspace>>,
) {
  const runs = { bare: [] as number[], piece: [] as number[], chunked: [] as number[], first: [] as number[], streamed: [] as number[] };
  let taskId = '';
  const enough = () => runs.bare.length >= MAX_ROUNDS || (runs.bare.length >= MIN_ROUNDS && runs.bare.reduce((sum, run) => sum + run, 0) >= BARE_SECONDS);
  while (!enough()) {
    runs.bare.push(await bare.run(voice));
    const piece = await onePiece(url, key, voice.voiceId);
    runs.piece.push(piece.total);
    taskId = piece.taskId;
    runs.chunked.push(await chunked(timbre, events, voice.voiceId));
    const stream = await streamed(url, key, voice.voiceId);
    runs.first.push(stream.first);
    runs.streamed.push(stream.total);
  }
  const task = await timbre.GET('/api/tasks/{task_id}', { params: { path: { task_id: taskId } } });
  const bareS = median(runs.bare);
  return {
    voice: voice.voiceId,
    rounds: runs.bare.length,
    bare_s: round(bareS),
    piece_s: round(median(runs.piece)),
    piece_ratio: round(median(runs.piece.map((piece, index) => piece / runs.bare[index]!)), 2),
    chunked_s: round(median(runs.chunked)),
    chunked_ratio: round(median(runs.chunked.map((chunked, index) => chunked / runs.bare[index]!)), 2),
    first_byte_ms: round(median(runs.first) * 1000, 0),
    first_byte_share: round(median(runs.first.map((first, index) => first / runs.streamed[index]!)), 2),
    ...stageColumns(task.data?.stages ?? null),
  };
}

/**
 * The service's own cost, per built-in voice on the 2,000-character text, against the voice's own
 * command line run in the same rounds: one request, sentence chunks, and the first streamed byte.
 */
export async function benchService() {
  const { service, key } = await startService();
  const bare = await bareWorkspace(LONG_TEXT);
  const timbre = createTimbreClient({ baseUrl: service.url, apiKey: key });
  const events = await completions(service.url, key);
  try {
    const rows = [];
    for (const voice of BARE_VOICES) {
      const info = await timbre.GET('/api/voices/{id}', { params: { path: { id: voice.voiceId } } });
      if (!info.data?.available) continue;
      // Warm up: the engine loads in the engine host, ffmpeg and the sockets start.
      await onePiece(service.url, key, voice.voiceId);
      await streamed(service.url, key, voice.voiceId);
      rows.push(await measureVoice(timbre, events, service.url, key, voice, bare));
    }
    return rows;
  } finally {
    events.close();
    await bare.remove();
    await service.stop();
    await removeDir(service.dataDir);
  }
}
