import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, describe, test } from 'node:test';
import { durationOf } from '../../../src/platform/audio/pcm.js';
import { encodeWav } from '../../../src/platform/audio/wav.js';
import { createEspeakSynthesizer, espeakEngine } from '../../../src/platform/engines/espeak.js';
import { createFestivalSynthesizer, festivalEngine } from '../../../src/platform/engines/festival.js';
import { createFliteSynthesizer, fliteEngine } from '../../../src/platform/engines/flite.js';
import type { EngineDescriptor, JobContext, SynthesisRequest, Synthesizer } from '../../../src/platform/engines/types.js';
import { espeakMnemonics } from '../../../src/platform/text/phonemes/espeak.js';
import { heardByPocketSphinx } from '../../helpers/judges.js';

/**
 * Engines with phoneme input say a word given only as its sounds: the written word is one the
 * recognizer would hear as something else (`xyzzy`), so hearing the sounds' words shows they were
 * spoken, and the one word timing spans the sounds.
 */

/** A phrase in both alphabets; PocketSphinx hears each reliably from the voices it is given to. */
interface Phrase {
  words: string;
  ipa: string;
  xsampa: string;
}

const HELLO_WORLD: Phrase = { words: 'hello world', ipa: 'həˈloʊ ˈwɝld', xsampa: 'h@"loU "w3`ld' };
/** eSpeak's formant voice says "hello world" so that the recognizer hears it only sometimes. */
const SEE_YOU_TOMORROW: Phrase = { words: 'see you tomorrow', ipa: 'ˈsi ju təˈmɑɹoʊ', xsampa: '"si ju t@"mAr\\oU' };

interface Subject {
  descriptor: EngineDescriptor;
  synthesizer: Synthesizer;
  voices: string[];
  phrase: Phrase;
}

const subjects: Subject[] = [
  { descriptor: espeakEngine, synthesizer: createEspeakSynthesizer(), voices: ['espeak:en-us', 'espeak:mb-us1'], phrase: SEE_YOU_TOMORROW },
  {
    descriptor: festivalEngine,
    synthesizer: createFestivalSynthesizer(),
    voices: ['festival:kal_diphone', 'festival:cmu_us_slt_arctic_hts'],
    phrase: HELLO_WORLD,
  },
  { descriptor: fliteEngine, synthesizer: createFliteSynthesizer(), voices: ['flite:slt', 'flite:kal16'], phrase: HELLO_WORLD },
];
after(() => Promise.all(subjects.map(async (subject) => subject.synthesizer.dispose?.())));

function context(): JobContext {
  return { signal: new AbortController().signal, progress: () => undefined };
}

async function heard(synthesizer: Synthesizer, request: SynthesisRequest): Promise<{ text: string; words: { word: string; start: number; end: number }[] }> {
  const result = await synthesizer.synthesize(request, context());
  const words = result.words ?? [];
  for (const word of words) assert.ok(word.start >= 0 && word.start < word.end && word.end <= durationOf(result.pcm), JSON.stringify(word));
  return { text: await heardByPocketSphinx(encodeWav(result.pcm)), words };
}

for (const { descriptor, synthesizer, voices, phrase } of subjects) {
  const availability = await descriptor.probe();
  const installed = availability.available ? (await synthesizer.listVoices()).map((voice) => voice.id) : [];
  describe(`${descriptor.id} phoneme input`, { skip: !availability.available && availability.reason }, () => {
    test('declares it', () => assert.equal(synthesizer.capabilities.phonemeInput, true));

    for (const voice of voices) {
      test(`${voice} says IPA, not the written word`, { skip: !installed.includes(voice) && `${voice} not installed` }, async () => {
        const { text, words } = await heard(synthesizer, { text: 'xyzzy', voice, phonemes: { alphabet: 'ipa', value: phrase.ipa } });
        assert.equal(text, phrase.words);
        assert.deepEqual(
          words.map((word) => word.word),
          ['xyzzy'],
        );
      });
    }

    test(`${voices[0]} says X-SAMPA`, { skip: !installed.includes(voices[0] ?? '') && 'not installed' }, async () => {
      const { text } = await heard(synthesizer, { text: 'xyzzy', voice: voices[0] ?? '', phonemes: { alphabet: 'x-sampa', value: phrase.xsampa } });
      assert.equal(text, phrase.words);
    });

    test(
      `${voices[0]} says the written word when no sound of the phonemes converts`,
      { skip: !installed.includes(voices[0] ?? '') && 'not installed' },
      async () => {
        const voice = voices[0] ?? '';
        const written = await heard(synthesizer, { text: phrase.words, voice });
        const fallback = await heard(synthesizer, { text: phrase.words, voice, phonemes: { alphabet: 'ipa', value: '˥˩' } });
        // The written words, each its own timing, as without phonemes (a phoneme run is one word).
        assert.deepEqual(
          fallback.words.map((word) => word.word),
          phrase.words.split(' '),
        );
        assert.deepEqual(
          fallback.words.map((word) => word.word),
          written.words.map((word) => word.word),
        );
      },
    );
  });
}

describe('eSpeak NG reads the mnemonics as the IPA they came from', { skip: !(await espeakEngine.probe()).available && 'eSpeak NG not installed' }, () => {
  const cases: [string, string][] = [
    ['en-us', 'təmˈɑːɹoʊ'],
    ['de', 'ʃˈøːn ɪç tsˈaɪt pfˈeːɾt'],
    ['fr', 'bɔ̃ʒˈuʁ œ̃ vˈɛ̃ blˈɑ̃'],
    ['es', 'pˈero kˈaɾo maɲˈana ʎˈama'],
    ['it', 'ɲˈɔkkɪ fˈiʎʎo tʃˈao pˈittsa'],
  ];
  for (const [language, value] of cases) {
    test(language, () => {
      const mnemonics = espeakMnemonics({ alphabet: 'ipa', value }, language);
      // The espeak-ng program prints the IPA of what it would say, its phoneme input read as the library reads it.
      const spoken = execFileSync('espeak-ng', ['-v', language, '-q', '--ipa', `[[${mnemonics}]]`], { encoding: 'utf8' }).trim();
      assert.equal(spoken.replace(/\s+/g, ' '), value);
    });
  }
});
