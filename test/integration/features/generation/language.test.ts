import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { zipSync } from 'fflate';
import { encodeWav } from '../../../../src/platform/audio/wav.js';
import { startInProcess, type InProcessTimbre } from '../../../helpers/in-process.js';

/**
 * Short English a speech API is sent: greetings, names, numbers, one word. A few words are too
 * few to tell a language by (the detector hears "Hello from Timbre." as Italian), so each is
 * spoken in English.
 */
const SHORT_ENGLISH = [
  'Hello from Timbre.',
  'Hello',
  'Hi!',
  'OK.',
  'Yes',
  'No',
  'Thanks',
  'Good morning',
  'Good night, Anna.',
  'Anna and Marco',
  'Maria Rossi',
  'Sofia Loren',
  'Welcome, Giovanni',
  'Hola Pedro',
  'Bonjour Marie said hello',
  'Call 555 0142',
  'Room 101',
  'See you at 10',
  'Order 42 is ready',
  'Ciao Bella Pizzeria opens at 9',
  'Ciao!',
  'Bravo!',
  'Amen.',
  'Test',
  'Hello world',
  'Pasta al dente',
  'Next stop: Piazza San Marco.',
  'Wi-Fi password: Timbre2024.',
  'Welcome to Milano Centrale',
  'Is Paolo there?',
];
const OPENAI_NAMES = ['alloy', 'onyx', 'nova', 'fable', 'echo', 'shimmer', 'ash', 'coral', 'sage', 'verse', 'ballad', 'marin', 'cedar'];

const wav = encodeWav({ samples: Float32Array.from({ length: 16000 }, (_, i) => Math.sin(i / 8) * 0.4), sampleRate: 16000 });

/** A clone and a design that speak as pico:en-US, imported as another Timbre would export them. */
function customVoices(): Buffer {
  const voice = (id: string, type: 'clone' | 'design') => ({
    id,
    name: `English ${type}`,
    type,
    engine: 'pico',
    engine_voice: 'pico:en-US',
    language: 'en-US',
    languages: ['en-US'],
    gender: 'female',
    description: null,
    tags: [],
    settings: {},
    samples: [{ file: `samples/${id}/1.wav`, duration: 1, sample_rate: 16000, transcript: null }],
  });
  const manifest = {
    format: 'timbre-voices',
    version: 1,
    exported_at: new Date().toISOString(),
    voices: [voice('voice_lang_clone', 'clone'), voice('voice_lang_design', 'design')],
  };
  return Buffer.from(
    zipSync({
      'manifest.json': new TextEncoder().encode(JSON.stringify(manifest)),
      'samples/voice_lang_clone/1.wav': wav,
      'samples/voice_lang_design/1.wav': wav,
    }),
  );
}

describe('the language a text is spoken in', { timeout: 300_000 }, () => {
  let timbre: InProcessTimbre;
  const post = async (url: string, payload: unknown) => timbre.call({ method: 'POST', url, payload: payload as Record<string, unknown> });
  /** The stored task a spoken answer names in X-Task-Id. */
  const taskOf = async (answer: { statusCode: number; body: string; headers: Record<string, unknown> }) => {
    assert.equal(answer.statusCode, 200, answer.body);
    const task = await timbre.call({ method: 'GET', url: `/api/tasks/${String(answer.headers['x-task-id'])}` });
    assert.equal(task.statusCode, 200, task.body);
    return task.json<{ language: string; voice_id: string }>();
  };

  before(async () => {
    timbre = await startInProcess();
    const imported = await timbre.call({ method: 'POST', url: '/api/voices/import', payload: customVoices(), headers: { 'content-type': 'application/zip' } });
    assert.equal(imported.statusCode, 200, imported.body);
  });
  after(() => timbre.close());

  test('the README’s /v1 example speaks English', async () => {
    const task = await taskOf(await post('/v1/audio/speech', { model: 'tts-1', input: 'Hello from Timbre.', voice: 'alloy' }));
    assert.match(task.language, /^en-/);
    assert.doesNotMatch(task.voice_id, /:it/);
  });

  test('30 short English texts go to English voices through /v1/audio/speech, whichever OpenAI name', async () => {
    const spoken: string[] = [];
    for (const [index, input] of SHORT_ENGLISH.entries()) {
      const voice = OPENAI_NAMES[index % OPENAI_NAMES.length]!;
      const task = await taskOf(await post('/v1/audio/speech', { model: 'tts-1', input, voice, response_format: 'wav' }));
      spoken.push(`${input} → ${voice} → ${task.voice_id} (${task.language})`);
    }
    assert.deepEqual(
      spoken.filter((line) => !/\((en-[A-Z]+)\)$/.test(line)),
      [],
    );
  });

  test('and through /api/generate/preset without a language', async () => {
    const voices = ['pico:en-US', 'rhvoice:clb'];
    const languages = new Set<string>();
    for (const [index, text] of SHORT_ENGLISH.entries()) {
      const task = await taskOf(await post('/api/generate/preset', { voice_id: voices[index % voices.length], text }));
      languages.add(task.language);
    }
    assert.deepEqual([...languages], ['en-US']);
  });

  test('sentences of normal length in German, French and Japanese go to voices of those languages', async () => {
    const cases = [
      ['nova', 'Das Wetter ist heute sehr schön.', /^de/],
      ['onyx', 'Le chat dort sur le canapé.', /^fr/],
      ['alloy', '今日はいい天気ですね。', /^ja/],
    ] as const;
    for (const [voice, input, language] of cases) {
      const task = await taskOf(await post('/v1/audio/speech', { model: 'tts-1', input, voice, response_format: 'wav' }));
      assert.match(task.language, language, input);
    }
  });

  test('a stated language the voice does not speak is still refused', async () => {
    const answer = await post('/api/generate/preset', { voice_id: 'pico:en-US', text: 'Guten Morgen.', language: 'de-DE' });
    assert.equal(answer.statusCode, 422, answer.body);
    assert.equal(answer.json<{ error: { code: string } }>().error.code, 'language_not_supported');
  });

  for (const [type, voiceId] of [
    ['preset', 'pico:en-US'],
    ['clone', 'voice_lang_clone'],
    ['design', 'voice_lang_design'],
  ] as const) {
    test(`/api/generate/${type} may leave out the language: the voice’s own`, async () => {
      const task = await taskOf(await post(`/api/generate/${type}`, { voice_id: voiceId, text: 'Anna and Marco' }));
      assert.deepEqual([task.voice_id, task.language], [voiceId, 'en-US']);
    });
  }

  test('/api/generate/clone-chunked may leave out the language: the voice’s own', async () => {
    const answer = await post('/api/generate/clone-chunked', { voice_id: 'voice_lang_clone', text: 'Hello from Timbre. Call 555 0142.' });
    assert.equal(answer.statusCode, 202, answer.body);
    assert.deepEqual(
      answer.json<{ chunks: { language: string }[] }>().chunks.map((chunk) => chunk.language),
      ['en-US', 'en-US'],
    );
  });

  test('/api/generate/clone-chunked-multivoice may leave out the language: each line in its voice’s', async () => {
    const script = 'Anna: Hello from Timbre.\nHans: Guten Morgen.';
    const answer = await post('/api/generate/clone-chunked-multivoice', { script, voices: { Anna: 'pico:en-US', Hans: 'pico:de-DE' } });
    assert.equal(answer.statusCode, 202, answer.body);
    assert.deepEqual(
      answer.json<{ chunks: { language: string; route: string }[] }>().chunks.map((chunk) => [chunk.language, chunk.route]),
      [
        ['en-US', 'voice'],
        ['de-DE', 'voice'],
      ],
    );
  });

  test('/api/generate/clone-chunked-multilang segments may leave out the language: their voice’s', async () => {
    const segments = [{ text: 'Ciao Bella Pizzeria opens at 9.' }, { text: 'Bonjour.', voice_id: 'pico:fr-FR' }, { text: 'Guten Morgen.', language: 'de-DE' }];
    const answer = await post('/api/generate/clone-chunked-multilang', { voice_id: 'pico:en-US', segments });
    assert.equal(answer.statusCode, 202, answer.body);
    assert.deepEqual(
      answer.json<{ chunks: { language: string }[] }>().chunks.map((chunk) => chunk.language),
      ['en-US', 'fr-FR', 'de-DE'],
    );
  });
});
