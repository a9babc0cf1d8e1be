import { createTimbreClient, type TimbreClient } from '../src/client/index.js';
import { createKeyWithCli, removeDir, startTimbre } from '../test/helpers/timbre.js';
import { round, timed } from './measure.js';
import type { SynthesizerFigures } from './synthesizers.js';
import { LONG_TEXT, SHORT_TEXT } from './texts.js';

/** The real service on a free port, with no contract check, and a key no rate limit slows down. */
async function startService() {
  const service = await startTimbre({ env: { TIMBRE_CONTRACT_CHECK: 'false' } });
  const limits = ['tts:generate', 'voices:read'].flatMap((scope) => ['--rate-limit', `${scope}=100000`]);
  const { key } = await createKeyWithCli(service.dataDir, 'bench', limits);
  return { service, key };
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
  const { service, key } = await startService();
  try {
    const timbre = createTimbreClient({ baseUrl: service.url, apiKey: key });
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
    await removeDir(service.dataDir);
  }
}
