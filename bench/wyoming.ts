// The Wyoming section alone: `npm run build:server && node --import tsx bench/wyoming.ts` (`npm run bench` runs it among the others).
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { createKeyWithCli, GENEROUS_LIMITS, removeDir, tempDir } from '../test/helpers/timbre.js';
import { readAudio, startTimbreWithWyoming, type WyomingClient } from '../test/helpers/wyoming-client.js';
import { median, printTable, round } from './measure.js';

/**
 * What a voice assistant's user waits for: a one-sentence reply, from the request to its first audio,
 * over Wyoming (to the first `audio-chunk`) and over HTTP (`POST /api/generate/preset` with
 * `"stream": true` and raw PCM, to the first byte), for one voice of each built-in family, in
 * interleaved rounds after a warm-up (medians; ratio = Wyoming / HTTP in the same round).
 */
export const WYOMING_TITLE =
  'Wyoming against HTTP: time to the first audio of a one-sentence reply per built-in voice family (medians of interleaved rounds after a warm-up; wyoming = synthesize to the first audio-chunk; http = POST /api/generate/preset {"stream": true, "format": "pcm"} to the first byte; ratio = wyoming / http in the same round)';

const ROUNDS = 7;
const REPLY = 'Okay, the living room lights are now off.';
const VOICES = [
  { voiceId: 'rhvoice:slt', text: REPLY, language: 'en-US' },
  { voiceId: 'pico:en-US', text: REPLY, language: 'en-US' },
  { voiceId: 'espeak:en-us', text: REPLY, language: 'en-US' },
  // eSpeak NG driving an MBROLA diphone voice: another family with another cost.
  { voiceId: 'espeak:mb-us1', text: REPLY, language: 'en-US' },
  { voiceId: 'festival:cmu_us_slt_arctic_hts', text: REPLY, language: 'en-US' },
  { voiceId: 'flite:slt', text: REPLY, language: 'en-US' },
  { voiceId: 'openjtalk:nitech-jp-atr503-m001', text: 'リビングの電気を消しました。', language: 'ja-JP' },
] as const;
type BenchVoice = (typeof VOICES)[number];

const now = () => performance.timeOrigin + performance.now();

/** Seconds from sending `synthesize` to the first audio-chunk; the reply is read to its audio-stop. */
async function wyomingFirstChunk(client: WyomingClient, voice: BenchVoice): Promise<number> {
  const sentAt = now();
  await client.send('synthesize', { text: voice.text, voice: { name: voice.voiceId } });
  const reply = await readAudio(client);
  const first = reply.chunks[0];
  if (reply.error || !first) throw new Error(`${voice.voiceId} over Wyoming: ${JSON.stringify(reply.error?.data ?? 'no audio')}`);
  return (first.receivedAt - sentAt) / 1000;
}

/** Seconds from sending the streamed request to the first byte of its body, read to the end with node:http. */
function httpFirstByte(url: string, key: string, voice: BenchVoice): Promise<number> {
  const body = JSON.stringify({ voice_id: voice.voiceId, text: voice.text, language: voice.language, stream: true, format: 'pcm' });
  return new Promise((resolve, reject) => {
    const sentAt = now();
    let first: number | undefined;
    const sent = request(`${url}/api/generate/preset`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' } }, (response) => {
      const failed: Buffer[] = [];
      response.on('data', (chunk: Buffer) => {
        if (response.statusCode !== 200) failed.push(chunk);
        else if (chunk.length > 0) first ??= now();
      });
      response.on('error', reject);
      response.on('end', () => {
        if (response.statusCode !== 200 || first === undefined)
          reject(new Error(`${voice.voiceId} over HTTP: ${response.statusCode} ${Buffer.concat(failed).toString()}`));
        else resolve((first - sentAt) / 1000);
      });
    });
    sent.on('error', reject);
    sent.end(body);
  });
}

export async function benchWyoming() {
  const dataDir = await tempDir('timbre-bench-wyoming-');
  const { key, key_id: keyId } = await createKeyWithCli(dataDir, 'bench', GENEROUS_LIMITS);
  const wyoming = await startTimbreWithWyoming({ dataDir, keyId, env: { TIMBRE_CONTRACT_CHECK: 'false' } });
  // One connection throughout, as Home Assistant keeps one.
  const client = await wyoming.connect();
  try {
    const rows = [];
    for (const voice of VOICES) {
      // Warm up: the engine loads in the engine host.
      await wyomingFirstChunk(client, voice);
      await httpFirstByte(wyoming.timbre.url, key, voice);
      const runs = { wyoming: [] as number[], http: [] as number[] };
      for (let round = 0; round < ROUNDS; round++) {
        runs.wyoming.push(await wyomingFirstChunk(client, voice));
        runs.http.push(await httpFirstByte(wyoming.timbre.url, key, voice));
      }
      rows.push({
        voice: voice.voiceId,
        rounds: ROUNDS,
        wyoming_first_chunk_ms: round(median(runs.wyoming) * 1000, 0),
        http_first_byte_ms: round(median(runs.http) * 1000, 0),
        ratio: round(median(runs.wyoming.map((seconds, index) => seconds / runs.http[index]!)), 2),
      });
    }
    return rows;
  } finally {
    client.end();
    await wyoming.timbre.stop();
    await removeDir(dataDir);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) printTable(WYOMING_TITLE, await benchWyoming());
