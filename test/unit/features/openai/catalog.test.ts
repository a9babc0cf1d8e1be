import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  englishLanguageName,
  mapOpenAiVoice,
  OPENAI_VOICE_NAMES,
  recognizerFor,
  speechEnginesFor,
  speechLanguage,
  speechModelIds,
  type CatalogVoice,
} from '../../../../src/features/openai/catalog.js';
import { languageTagFor } from '../../../../src/platform/speech/speech.js';
import { engineOf } from '../../../helpers/engine-ids.js';

const voice = (id: string, language: string, gender: CatalogVoice['gender'], license: string | null = null): CatalogVoice => ({
  id,
  engine: engineOf(id),
  language,
  languages: [language],
  gender,
  license,
});

/** The built-in voices of a machine without neural models (a subset of what the engines list). */
const BUILTIN = [
  voice('pico:en-US', 'en-US', 'female'),
  voice('pico:en-GB', 'en-GB', 'female'),
  voice('pico:de-DE', 'de-DE', 'female'),
  voice('flite:awb', 'en-GB', 'male'),
  voice('flite:kal16', 'en-US', 'male'),
  voice('flite:rms', 'en-US', 'male'),
  voice('flite:slt', 'en-US', 'female'),
  voice('espeak:de', 'de', 'male'),
  voice('espeak:en-us', 'en-US', 'male'),
];
const KOKORO = [
  voice('kokoro:af_alloy', 'en-US', 'female'),
  voice('kokoro:af_bella', 'en-US', 'female'),
  voice('kokoro:am_adam', 'en-US', 'male'),
  voice('kokoro:am_onyx', 'en-US', 'male'),
  voice('kokoro:bm_fable', 'en-GB', 'male'),
  voice('kokoro:bm_george', 'en-GB', 'male'),
];
/** RHVoice's English voices as Debian licenses them: two of them forbid commercial use. */
const RHVOICE = [
  voice('rhvoice:alan', 'en-US', 'male', 'LGPL-2.1+'),
  voice('rhvoice:bdl', 'en-US', 'male', 'LGPL-2.1+'),
  voice('rhvoice:clb', 'en-US', 'female', 'LGPL-2.1+'),
  voice('rhvoice:evgeniy-eng', 'en-US', 'male', 'CC-BY-NC-ND-4.0'),
  voice('rhvoice:lyubov', 'en-US', 'female', 'CC-BY-NC-ND-4.0'),
  voice('rhvoice:slt', 'en-US', 'female', 'LGPL-2.1+'),
];
const OPEN_JTALK = [voice('openjtalk:nitech-jp-atr503-m001', 'ja-JP', 'male', 'CC-BY-3.0')];
const engines = (voices: CatalogVoice[]) => new Set(voices.map((entry) => entry.engine));

describe('OpenAI model ids', () => {
  test('the OpenAI speech ids select every installed synthesizer, neural first; an engine name selects itself', () => {
    assert.deepEqual(speechEnginesFor('tts-1', engines([...BUILTIN, ...KOKORO])), ['kokoro', 'pico', 'flite', 'espeak']);
    assert.deepEqual(speechEnginesFor('gpt-4o-mini-tts', engines(BUILTIN)), ['pico', 'flite', 'espeak']);
    assert.deepEqual(speechEnginesFor('flite', engines(BUILTIN)), ['flite']);
    assert.equal(speechEnginesFor('kokoro', engines(BUILTIN)), undefined);
    assert.equal(speechEnginesFor('tts-2', engines(BUILTIN)), undefined);
    assert.equal(speechEnginesFor('tts-1', new Set()), undefined);
  });

  test('only the ids that resolve are listed', () => {
    assert.deepEqual(speechModelIds(engines(BUILTIN)), ['tts-1', 'tts-1-hd', 'gpt-4o-mini-tts', 'pico', 'flite', 'espeak']);
    assert.deepEqual(speechModelIds(new Set()), []);
  });

  test('transcription ids: the OpenAI ones pick the best recognizer (null), an installed engine itself, anything else nothing', () => {
    assert.equal(recognizerFor('whisper-1', ['pocketsphinx']), null);
    assert.equal(recognizerFor('pocketsphinx', ['pocketsphinx']), 'pocketsphinx');
    assert.equal(recognizerFor('whisper', ['pocketsphinx']), undefined);
    assert.equal(recognizerFor('whisper-1', []), undefined);
  });
});

describe('OpenAI voice names', () => {
  const builtinEngines = speechEnginesFor('tts-1', engines(BUILTIN))!;

  test('each name gets a voice of its gender from the best engine that has one, Fable a British one', () => {
    assert.equal(mapOpenAiVoice('alloy', BUILTIN, builtinEngines, 'en')?.id, 'pico:en-US');
    assert.equal(mapOpenAiVoice('nova', BUILTIN, builtinEngines, 'en')?.id, 'pico:en-US');
    assert.match(mapOpenAiVoice('onyx', BUILTIN, builtinEngines, 'en')!.id, /^flite:(kal16|rms)$/);
    assert.equal(mapOpenAiVoice('fable', BUILTIN, builtinEngines, 'en')?.id, 'flite:awb');
  });

  test('every name maps, deterministically, and male names are dealt over the male voices', () => {
    const mapped = OPENAI_VOICE_NAMES.map((name) => mapOpenAiVoice(name, BUILTIN, builtinEngines, 'en')?.id);
    assert.ok(mapped.every(Boolean));
    assert.deepEqual(
      OPENAI_VOICE_NAMES.map((name) => mapOpenAiVoice(name, [...BUILTIN].reverse(), builtinEngines, 'en')?.id),
      mapped,
    );
    const male = ['ash', 'ballad', 'cedar', 'echo', 'onyx', 'verse'].map((name) => mapOpenAiVoice(name, BUILTIN, builtinEngines, 'en')?.id);
    assert.deepEqual(new Set(male), new Set(['flite:kal16', 'flite:rms']));
  });

  test('within one engine a name falls back to any voice of it when none has its gender', () => {
    assert.equal(mapOpenAiVoice('onyx', BUILTIN, ['pico'], 'en')?.id, 'pico:en-US');
    assert.equal(mapOpenAiVoice('fable', BUILTIN, ['pico'], 'en')?.id, 'pico:en-GB');
  });

  test('with RHVoice installed the names speak with its voices, never with one whose license forbids commercial use', () => {
    const all = [...BUILTIN, ...RHVOICE];
    const order = speechEnginesFor('tts-1', engines(all))!;
    assert.deepEqual(order, ['rhvoice', 'pico', 'flite', 'espeak']);
    const mapped = OPENAI_VOICE_NAMES.map((name) => mapOpenAiVoice(name, all, order, 'en')!);
    assert.deepEqual(new Set(mapped.map((entry) => entry.id)), new Set(['rhvoice:alan', 'rhvoice:bdl', 'rhvoice:clb', 'rhvoice:slt']));
    assert.equal(mapOpenAiVoice('nova', all, order, 'en')?.gender, 'female');
    assert.equal(mapOpenAiVoice('onyx', all, order, 'en')?.gender, 'male');
    // Only where nothing else speaks the language is a non-commercial voice used.
    assert.equal(mapOpenAiVoice('nova', [RHVOICE[4]!], ['rhvoice'], 'en')?.id, 'rhvoice:lyubov');
  });

  test('Japanese text speaks with Open JTalk, whatever the name’s gender', async () => {
    const all = [...BUILTIN, ...OPEN_JTALK];
    const order = speechEnginesFor('tts-1', engines(all))!;
    const languages = all.flatMap((entry) => entry.languages);
    assert.equal(await speechLanguage('今日はいい天気ですね。散歩に行きましょう。', languages, 'en'), 'ja');
    for (const name of ['alloy', 'onyx']) assert.equal(mapOpenAiVoice(name, all, order, 'ja')?.id, 'openjtalk:nitech-jp-atr503-m001');
  });

  test('a voice named like the OpenAI voice is preferred (Kokoro’s af_alloy, am_onyx, bm_fable)', () => {
    const all = [...KOKORO, ...BUILTIN];
    const order = speechEnginesFor('tts-1', engines(all))!;
    assert.equal(mapOpenAiVoice('alloy', all, order, 'en')?.id, 'kokoro:af_alloy');
    assert.equal(mapOpenAiVoice('onyx', all, order, 'en')?.id, 'kokoro:am_onyx');
    assert.equal(mapOpenAiVoice('fable', all, order, 'en')?.id, 'kokoro:bm_fable');
  });

  test('another language gets that language’s voices, by gender across engines', () => {
    assert.equal(mapOpenAiVoice('nova', BUILTIN, builtinEngines, 'de')?.id, 'pico:de-DE');
    assert.equal(mapOpenAiVoice('onyx', BUILTIN, builtinEngines, 'de')?.id, 'espeak:de');
    assert.equal(mapOpenAiVoice('nova', BUILTIN, builtinEngines, 'ja'), undefined);
    assert.equal(mapOpenAiVoice('someone', BUILTIN, builtinEngines, 'en'), undefined);
  });
});

describe('the language of the input', () => {
  const languages = BUILTIN.map((entry) => entry.language);

  test('detected among the voices’ languages when the text says so, else the preferred one', async () => {
    assert.equal(await speechLanguage('Guten Morgen, wie geht es Ihnen heute? Das Wetter ist schön.', languages, 'en'), 'de');
    assert.equal(await speechLanguage('Good morning, how are you today? The weather is lovely.', languages, 'en'), 'en');
    assert.equal(await speechLanguage('Hi', languages, 'en'), 'en');
    assert.equal(await speechLanguage('Good morning, how are you today?', ['de'], 'en'), 'de');
  });

  test('a few words stay in the preferred language, whatever the detector guesses', async () => {
    // eld scores this Italian 0.66, Spanish 0.61, English 0.58: it used to be spoken by pico:it-IT.
    assert.equal(await speechLanguage('Hello from Timbre.', languages, 'en'), 'en');
    assert.equal(await speechLanguage('Ciao Bella Pizzeria opens at 9', languages, 'en'), 'en');
    assert.equal(await speechLanguage('Ciao!', languages, 'de'), 'de');
  });

  test('spoken with the voice’s own tag for that language', () => {
    assert.equal(languageTagFor(voice('pico:en-GB', 'en-GB', 'female'), 'en'), 'en-GB');
    assert.equal(languageTagFor(voice('espeak:de', 'de', 'male'), 'de'), 'de');
  });

  test('named in English as Whisper names languages', () => {
    assert.equal(englishLanguageName('en'), 'english');
    assert.equal(englishLanguageName('de-DE'), 'german');
  });
});
