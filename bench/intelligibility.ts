import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { HELD_OUT_SENTENCES, heldOutWordErrorRate, praatMedianPitch } from '../test/helpers/judges.js';
import { createKeyWithCli, postMultipart, removeDir, request, startTimbre } from '../test/helpers/timbre.js';
import { round } from './measure.js';

/**
 * How intelligible every English preset and the clones of the reference clips are: word error
 * rate of the built-in recognizer on sentences no voice was fitted on (test/helpers/judges.ts),
 * through the real service. Clones also get Praat's median pitch against the recording's.
 */
export async function benchIntelligibility(clips: string[]) {
  const service = await startTimbre({ env: { TIMBRE_CONTRACT_CHECK: 'false' } });
  try {
    const scopes = ['clone:create', 'tts:generate', 'voices:read', 'audio:process'];
    const { key } = await createKeyWithCli(
      service.dataDir,
      'bench',
      scopes.flatMap((scope) => ['--rate-limit', `${scope}=100000`]),
    );
    const speaker = (route: string, voiceId: string) => async (text: string) => {
      const response = await fetch(new URL(route, service.url), {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify({ voice_id: voiceId, text, language: 'en' }),
      });
      if (response.status !== 200) throw new Error(`${route} ${voiceId}: ${response.status} ${await response.text()}`);
      return Buffer.from(await response.arrayBuffer());
    };
    const hear = async (audio: Buffer) => {
      const { status, body } = await postMultipart(service.url, key, '/api/transcribe', [{ name: 'speech.wav', bytes: audio }], { language: 'en' });
      if (status !== 200) throw new Error(`transcribe: ${status} ${JSON.stringify(body)}`);
      return String(body.text);
    };
    const rows = [];
    const presets = (await request(service.url, 'GET', '/api/voices?type=preset&language=en&limit=500', { key })).body.voices as {
      id: string;
      available: boolean;
    }[];
    for (const preset of presets.filter((voice) => voice.available)) {
      rows.push({
        voice: preset.id,
        wer: round(await heldOutWordErrorRate(speaker('/api/generate/preset', preset.id), hear), 3),
        f0_hz: null,
        target_f0_hz: null,
      });
    }
    for (const clip of clips) {
      const bytes = await readFile(clip);
      const made = await postMultipart(service.url, key, '/api/clone/create', [{ name: basename(clip), bytes }], { name: basename(clip), language: 'en' });
      if (made.status !== 201) throw new Error(`clone ${clip}: ${made.status} ${JSON.stringify(made.body)}`);
      const speak = speaker('/api/generate/clone', made.body.voice_id);
      rows.push({
        voice: `clone of ${basename(clip)} (${made.body.voice.settings.starting_voice})`,
        wer: round(await heldOutWordErrorRate(speak, hear), 3),
        f0_hz: round(await praatMedianPitch(await speak(HELD_OUT_SENTENCES[0]!)), 1),
        target_f0_hz: round(await praatMedianPitch(bytes), 1),
      });
    }
    return rows;
  } finally {
    await service.stop();
    await removeDir(service.dataDir);
  }
}
