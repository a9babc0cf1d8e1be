import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createBuiltinSynthesizer, runEngineProgram, type BuiltinEngine } from '../../../../src/platform/engines/builtin-common.js';
import type { EngineId } from '../../../../src/platform/engines/engine-ids.js';
import { groupLongDigitRuns } from '../../../../src/platform/engines/pico.js';
import { type VoiceInfo } from '../../../../src/platform/engines/types.js';
import { EngineError } from '../../../../src/platform/errors.js';
import {
  MAX_WORD_BYTES,
  asciiPlainText,
  breakAbbreviationChains,
  breakLongWords,
  shortenPunctuationRuns,
} from '../../../../src/platform/engines/builtin-text.js';

const words = (text: string) => text.split(/\s+/).filter(Boolean);

/** The capabilities of a test engine that speaks English and nothing else of note. */
const englishSynthesizer = (engine: EngineId, changes: Partial<BuiltinEngine['capabilities']>): BuiltinEngine['capabilities'] => ({
  engine,
  kind: 'synthesizer',
  neural: false,
  languages: ['en-US'],
  wordTimings: false,
  phonemeTimings: false,
  referenceAudio: false,
  blendableVoices: false,
  speed: false,
  ...changes,
});

describe('what the built-in engines are given to read', () => {
  test('a word longer than MAX_WORD_BYTES is cut into parts of at most that many bytes, keeping every letter', () => {
    const broken = breakLongWords(`Voilà ${'é'.repeat(150)} fini`);
    assert.deepEqual(
      words(broken).map((word) => word.length),
      [5, 50, 50, 50, 4],
    );
    assert.equal(broken.replace(/\s/g, ''), `Voilà${'é'.repeat(150)}fini`);
    for (const word of words(breakLongWords('a.'.repeat(400) + ' ' + '9'.repeat(1000)))) assert.ok(Buffer.byteLength(word) <= MAX_WORD_BYTES);
  });

  test('real words stay whole: long German compounds, and Chinese, which is written without spaces', () => {
    const german =
      'Die Donaudampfschifffahrtselektrizitätenhauptbetriebswerkbauunterbeamtengesellschaft und das Rindfleischetikettierungsüberwachungsaufgabenübertragungsgesetz.';
    assert.equal(breakLongWords(german), german);
    const chinese = '我们今天去北京大学看看风景，然后回家吃饭。'.repeat(10);
    assert.equal(breakLongWords(chinese), chinese);
    const spaced = `one${' '.repeat(300)}two\n\n\nthree`;
    assert.equal(breakLongWords(spaced), spaced);
  });

  test('runs of more than three punctuation marks or symbols keep their first three', () => {
    assert.equal(shortenPunctuationRuns('Stop!!!!!! Now . . . . . then?!?!'), 'Stop!!! Now ... then?!?');
    assert.equal(shortenPunctuationRuns(`Hi ${'. '.repeat(2500)}`), 'Hi ... ');
    for (const kept of ['Wait... what?!', 'http://example.com/a-b', 'a - b = c', '1,000,000.50 $', '"Quoted," she said.'])
      assert.equal(shortenPunctuationRuns(kept), kept);
  });

  test('pico: runs of more than 50 digits are read in groups of 50', () => {
    assert.equal(groupLongDigitRuns('9'.repeat(120)), `${'9'.repeat(50)} ${'9'.repeat(50)} ${'9'.repeat(20)}`);
    for (const kept of ['9'.repeat(50), 'call 555 0100', '1,000,000', 'π is 3.14159265358979323846']) assert.equal(groupLongDigitRuns(kept), kept);
  });

  test('eSpeak: a chain of dotted letters gets a dash after every 20 letters; abbreviations stay as they are', () => {
    const chained = breakAbbreviationChains('e.g. '.repeat(50));
    assert.deepEqual(
      chained.split(' - ').map((part) => part.match(/\p{L}/gu)?.length ?? 0),
      [20, 20, 20, 20, 20],
    );
    assert.equal(chained.replace(/\s|-/g, ''), 'e.g.'.repeat(50));
    for (const kept of ['The U.S.A. and the U.K., i.e. two', 'Dr. J. R. R. Tolkien wrote it.', 'a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q.r.s.t'])
      assert.equal(breakAbbreviationChains(kept), kept);
  });

  test('Festival and Flite: ASCII, accents dropped and angle brackets made spaces', () => {
    assert.equal(asciiPlainText('Café "déjà vu", naïve <speak>.'), 'Cafe "deja vu", naive  speak .');
  });
});

describe('what a voice cannot read', () => {
  const voice: VoiceInfo = {
    id: 'latin:one',
    engine: 'pico',
    name: 'Latin only',
    language: 'en-US',
    languages: ['en-US'],
    gender: null,
    sampleRate: 16000,
    license: 'MIT',
  };
  const heard: string[] = [];
  /** Reads Latin script only, and says nothing (no samples) for a piece without an ASCII letter. */
  const latin: BuiltinEngine = {
    capabilities: englishSynthesizer('pico', { speed: false }),
    discoverVoices: async () => [voice],
    scriptsRead: () => ['Latin'],
    renderPiece: async (job) => {
      heard.push(job.text);
      return { pcm: { samples: new Float32Array(/[a-z]/i.test(job.text) ? 1600 : 0), sampleRate: 16000 } };
    },
  };
  const synthesizer = createBuiltinSynthesizer(latin);
  const context = { signal: new AbortController().signal, progress: () => undefined };

  test('letters of other scripts are taken out, after NFKC, before the engine reads the text', async () => {
    heard.length = 0;
    await synthesizer.synthesize({ text: 'Hello Ελληνικά world, ＡＢＣ.', voice: voice.id }, context);
    assert.deepEqual(heard, ['Hello world, ABC.']);
  });

  test('text in scripts the voice does not read is text_not_speakable, naming the scripts', async () => {
    await assert.rejects(synthesizer.synthesize({ text: 'Ελληνικά 中文', voice: voice.id }, context), (error: unknown) => {
      assert.ok(error instanceof EngineError);
      assert.equal(error.code, 'text_not_speakable');
      assert.equal(error.message, 'The voice latin:one (en-US) reads Latin script only, and this text is written in Greek, Han');
      assert.deepEqual(error.details, { voice: 'latin:one', language: 'en-US', scripts: ['Greek', 'Han'], readable_scripts: ['Latin'] });
      return true;
    });
    await assert.rejects(synthesizer.synthesize({ text: '!!! ...', voice: voice.id }, context), { code: 'text_empty' });
  });

  test('a piece the engine says nothing for is left out of the stream; a text it says nothing for at all is text_not_speakable', async () => {
    const pieces: number[] = [];
    const streaming = { ...context, audio: ({ pcm }: { pcm: { samples: Float32Array } }) => void pieces.push(pcm.samples.length) };
    const result = await synthesizer.synthesize({ text: 'Hello there. 42. Bye now.', voice: voice.id }, streaming);
    assert.deepEqual(pieces, [1600, 1600]);
    assert.equal(result.pcm.samples.length, 3200);
    await assert.rejects(synthesizer.synthesize({ text: '42. 7.', voice: voice.id }, context), {
      code: 'text_not_speakable',
      message: 'The voice latin:one (en-US) finds nothing it can say in this text',
    });
  });
});

describe('the per-piece time limit', () => {
  const voice: VoiceInfo = {
    id: 'slow:one',
    engine: 'flite',
    name: 'Slow',
    language: 'en-US',
    languages: ['en-US'],
    gender: null,
    sampleRate: 16000,
    license: 'MIT',
  };
  /** An engine whose program never finishes a piece: `sleep`, stopped only by the piece's signal. */
  const stuck: BuiltinEngine = {
    capabilities: englishSynthesizer('flite', { speed: true }),
    discoverVoices: async () => [voice],
    renderPiece: async (job) => {
      await runEngineProgram('sleep', ['30'], { signal: job.signal });
      throw new Error('sleep ended');
    },
  };
  const progress = () => undefined;

  test('a piece running past the limit fails the job with engine_piece_timeout, and its program is stopped', async () => {
    const synthesizer = createBuiltinSynthesizer(stuck, { pieceTimeoutMs: 300 });
    const started = Date.now();
    await assert.rejects(
      synthesizer.synthesize({ text: 'Hello there.', voice: voice.id }, { signal: new AbortController().signal, progress }),
      (error: unknown) => {
        assert.ok(error instanceof EngineError);
        assert.equal(error.code, 'engine_piece_timeout');
        assert.deepEqual(error.details, { piece_seconds: 0.3 });
        return true;
      },
    );
    assert.ok(Date.now() - started < 5000, 'the program was stopped at the limit, not left to finish');
  });

  test('cancelling the job is still a cancellation, not a piece timeout', async () => {
    const synthesizer = createBuiltinSynthesizer(stuck, { pieceTimeoutMs: 60_000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new EngineError('cancelled', 'The job was cancelled')), 200);
    await assert.rejects(
      synthesizer.synthesize({ text: 'Hello there.', voice: voice.id }, { signal: controller.signal, progress }),
      (error: unknown) => error instanceof EngineError && error.code === 'cancelled',
    );
  });
});
