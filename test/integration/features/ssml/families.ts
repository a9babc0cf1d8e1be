import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { injectRequest, inProcessWithAdmin, type InProcessFixture } from '../../../helpers/in-process.js';
import { buildKokoro } from '../../../helpers/stand-in-models.js';
import { removeDir, tempDir } from '../../../helpers/timbre.js';

/** One voice of each engine family the SSML acceptance is measured on. */
export interface Family {
  name: string;
  voice: string;
  language: string;
}

/** The English built-in families, which the recognizer can hear. */
export const ENGLISH_BUILT_INS: readonly Family[] = [
  { name: 'Pico', voice: 'pico:en-US', language: 'en-US' },
  { name: 'eSpeak NG', voice: 'espeak:en-us', language: 'en-US' },
  { name: 'MBROLA', voice: 'espeak:mb-us1', language: 'en-US' },
  { name: 'Flite', voice: 'flite:slt', language: 'en-US' },
  { name: 'Festival', voice: 'festival:cmu_us_slt_arctic_hts', language: 'en-US' },
  { name: 'RHVoice', voice: 'rhvoice:slt', language: 'en-US' },
];

/**
 * The English families PocketSphinx hears: all but eSpeak NG's own formant voice, of which it gets
 * one word in ten (its MBROLA voices, the same engine, it hears well).
 */
export const HEARD_BY_RECOGNIZER: readonly Family[] = ENGLISH_BUILT_INS.filter((family) => family.voice !== 'espeak:en-us');
export const ESPEAK_FORMANT: Family = ENGLISH_BUILT_INS.find((family) => family.voice === 'espeak:en-us')!;

export const OPEN_JTALK: Family = { name: 'Open JTalk', voice: 'openjtalk:nitech-jp-atr503-m001', language: 'ja' };

/** Kokoro built from a stand-in model (test/helpers/stand-in-models.ts): a 440 Hz tone per token, no words. */
export const KOKORO_STAND_IN: Family = { name: 'Kokoro stand-in', voice: 'kokoro:af_heart', language: 'en-US' };

/** A service in this process for the suite, with the Kokoro stand-in installed in its models folder. */
export function serviceWithStandIn(flags: Record<string, string> = {}): InProcessFixture {
  let modelsDir = '';
  before(async () => {
    modelsDir = await tempDir('timbre-ssml-models-');
    await buildKokoro(join(modelsDir, 'kokoro-multi-lang-v1_0-int8'));
    flags['models-dir'] = modelsDir;
  });
  after(() => removeDir(modelsDir));
  return inProcessWithAdmin({ flags });
}

export interface TimedWord {
  text: string;
  start: number;
  end: number;
}

/** `POST /api/generate/preset` of `text` in the family's voice: the WAV it answers. */
export async function speak(fixture: InProcessFixture, family: Family, text: string, extra: Record<string, unknown> = {}): Promise<Buffer> {
  const answer = await fixture.server.call({
    method: 'POST',
    url: '/api/generate/preset',
    key: fixture.admin.key,
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ voice_id: family.voice, text, language: family.language, ...extra }),
  });
  assert.equal(answer.statusCode, 200, `${family.name}: ${answer.body.slice(0, 500)}`);
  return answer.rawPayload;
}

/** The same with `"with_timestamps": true`: the WAV and the word timings the service gives with it. */
export async function speakWithWords(fixture: InProcessFixture, family: Family, text: string): Promise<{ audio: Buffer; words: TimedWord[]; taskId: string }> {
  const answer = await injectRequest(fixture.server, 'POST', '/api/generate/preset', {
    key: fixture.admin.key,
    json: { voice_id: family.voice, text, language: family.language, with_timestamps: true },
  });
  assert.equal(answer.status, 200, `${family.name}: ${answer.text.slice(0, 500)}`);
  const body = answer.body as { audio_base64: string; words: TimedWord[]; task_id: string };
  return { audio: Buffer.from(body.audio_base64, 'base64'), words: body.words, taskId: body.task_id };
}
