import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nearestPreset, planChunks } from '../../../../src/features/long-form/plan.js';
import type { SpeakingVoice } from '../../../../src/platform/speech/speech.js';
import { engineOf } from '../../../helpers/engine-ids.js';

const preset = (id: string, language: string, languages: string[] = [language]): SpeakingVoice => ({
  id,
  type: 'preset',
  engine: engineOf(id),
  engineVoice: id,
  language,
  languages,
  gender: 'female',
  available: true,
  settings: {},
});

const ENGLISH = preset('pico:en-US', 'en-US');
const GERMAN = preset('pico:de-DE', 'de-DE');
const BILINGUAL = preset('kokoro:bilingual', 'en-US', ['en-US', 'de-DE']);
const PRESETS = [ENGLISH, GERMAN];
const options = { standIn: (voice: SpeakingVoice, language: string) => nearestPreset(voice, language, PRESETS) };
const languages = (plans: Awaited<ReturnType<typeof planChunks>>) => plans.map((plan) => plan.language);

test('a segment without a language is spoken in its voice’s language, every sentence of it', async () => {
  const plans = await planChunks([{ voice: ENGLISH, text: 'Ciao Bella Pizzeria opens at 9. Anna and Marco. OK.' }], options);
  assert.deepEqual(languages(plans), ['en-US', 'en-US', 'en-US']);
  assert.ok(plans.every((plan) => plan.speaker === ENGLISH));
});

test('lines of several voices without a language: each line in its own voice’s language', async () => {
  const plans = await planChunks(
    [
      { voice: ENGLISH, text: 'Good morning.' },
      { voice: GERMAN, text: 'Guten Morgen.' },
    ],
    options,
  );
  assert.deepEqual(languages(plans), ['en-US', 'de-DE']);
  assert.deepEqual(
    plans.map((plan) => plan.route),
    ['voice', 'voice'],
  );
});

test('a voice of several languages takes another of them only when the text is confidently in it', async () => {
  assert.deepEqual(languages(await planChunks([{ voice: BILINGUAL, text: 'Hallo Anna!' }], options)), ['en-US']);
  const german = await planChunks([{ voice: BILINGUAL, text: 'Das Wetter ist heute sehr schön, wir gehen spazieren.' }], options);
  assert.deepEqual(languages(german), ['de-DE']);
  assert.equal(german[0]!.speaker, BILINGUAL);
});

test('a stated language the voice does not speak is handed to a stand-in, as before', async () => {
  const plans = await planChunks([{ voice: ENGLISH, text: 'Guten Morgen.', language: 'de-DE' }], options);
  assert.deepEqual([plans[0]!.language, plans[0]!.route], ['de-DE', 'preset:pico:de-DE']);
});

test('a text detected per sentence starts from the voice’s language', async () => {
  const text = 'The weather is nice today. Das Wetter ist heute sehr schön. OK.';
  const plans = await planChunks([{ voice: ENGLISH, text, detectPerSentence: true }], { ...options, candidates: ['en', 'de'] });
  assert.deepEqual(languages(plans), ['en', 'de', 'de']);
  assert.equal(plans[1]!.route, 'preset:pico:de-DE');
});
