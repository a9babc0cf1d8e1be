import { execFile, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createTimbreClient, type TimbreClient } from '../src/client/index.js';
import { round, timed } from './measure.js';
import type { SynthesizerFigures } from './synthesizers.js';
import { LONG_TEXT, SHORT_TEXT } from './texts.js';

const BIN = fileURLToPath(new URL('../bin/timbre.mjs', import.meta.url));
const run = promisify(execFile);

/** The real service on a free port with a key no rate limit slows down. */
async function startService(dataDir: string): Promise<{ url: string; key: string; stop: () => Promise<void> }> {
  const limits = ['tts:generate', 'voices:read'].flatMap((scope) => ['--rate-limit', `${scope}=100000`]);
  const { stdout } = await run(process.execPath, [BIN, 'keys', 'create', '--name', 'bench', '--data-dir', dataDir, '--json', ...limits]);
  const { key } = JSON.parse(stdout) as { key: string };
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--data-dir', dataDir], {
    env: { ...process.env, TIMBRE_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += String(chunk);
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`timbre exited with ${code}`)));
  });
  const stop = async () => {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
  return { url, key, stop };
}

/** Seconds for one text through POST /api/generate/preset, read to the last byte. */
async function throughService(timbre: TimbreClient, voiceId: string, text: string): Promise<number> {
  const { value, seconds } = await timed(() =>
    timbre.POST('/api/generate/preset', { body: { voice_id: voiceId, text, language: 'en-US' }, parseAs: 'arrayBuffer' }),
  );
  if (value.error) throw new Error(`${voiceId}: ${value.error.error.message}`);
  return seconds;
}

/**
 * The service's own cost: each engine's voice through HTTP (typed client, queue, engine host,
 * encoding) against the same engine called bare in the synthesis table, short and 2,000-character text.
 */
export async function benchService(synthesis: SynthesizerFigures[]) {
  const dataDir = await mkdtemp(join(tmpdir(), 'timbre-bench-service-'));
  const service = await startService(dataDir);
  try {
    const timbre = createTimbreClient({ baseUrl: service.url, apiKey: service.key });
    const rows = [];
    for (const figures of synthesis) {
      const voiceId = `${figures.engine}:${figures.voice}`;
      const voice = await timbre.GET('/api/voices/{id}', { params: { path: { id: voiceId } } });
      if (!voice.data?.available) continue;
      await throughService(timbre, voiceId, 'Warm up.');
      const short = await throughService(timbre, voiceId, SHORT_TEXT);
      const long = await throughService(timbre, voiceId, LONG_TEXT);
      const bareLong = figures.rtf_long * figures.audio_long_s;
      rows.push({ voice: voiceId, short_s: round(short), long_s: round(long), long_bare_s: round(bareLong), long_overhead: round(long / bareLong, 2) });
    }
    return rows;
  } finally {
    await service.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}
