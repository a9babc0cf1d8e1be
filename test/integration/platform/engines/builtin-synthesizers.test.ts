import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { durationOf, rms } from '../../../../src/platform/audio/pcm.js';
import { parseWav } from '../../../../src/platform/audio/wav.js';
import type { BuiltinOptions } from '../../../../src/platform/engines/builtin-common.js';
import { createEspeakSynthesizer, espeakEngine, parsePho } from '../../../../src/platform/engines/espeak.js';
import { createFestivalSynthesizer, festivalEngine } from '../../../../src/platform/engines/festival.js';
import { createFliteSynthesizer, fliteEngine } from '../../../../src/platform/engines/flite.js';
import { createPicoSynthesizer, picoEngine } from '../../../../src/platform/engines/pico.js';
import { type EngineDescriptor, type JobContext, type SynthesisResult, type Synthesizer, type VoiceInfo } from '../../../../src/platform/engines/types.js';
import { EngineError } from '../../../../src/platform/errors.js';
import { runProgram } from '../../../../src/platform/util/run.js';

/** Well below every voice measured here (the quietest, flite kal16 and festival el_diphone, are ~0.04). */
const RMS_FLOOR = 0.01;
/**
 * Seconds of audio per character of text (spaces and punctuation included), at speed 1. Measured
 * over all voices and test sentences: 0.040 (eSpeak MBROLA French) to 0.15 (eSpeak Korean); a
 * Mandarin character is a whole syllable, ~0.38 s. The bounds catch truncated or runaway output.
 */
const SECONDS_PER_CHAR = { min: 0.03, max: 0.25 };
const SECONDS_PER_HAN_CHAR = { min: 0.15, max: 0.6 };

const SENTENCES: Record<string, string> = {
  en: 'The quick brown fox jumps over the lazy dog.',
  de: 'Guten Morgen, wie geht es Ihnen heute?',
  fr: "Bonjour, comment allez-vous aujourd'hui ?",
  es: 'Buenos días, ¿cómo está usted hoy?',
  it: 'Buongiorno, come sta oggi?',
  pt: 'Bom dia, como você está hoje?',
  nl: 'Goedemorgen, hoe gaat het met u vandaag?',
  sv: 'God morgon, hur mår du idag?',
  da: 'God morgen, hvordan har du det i dag?',
  nb: 'God morgen, hvordan har du det i dag?',
  fi: 'Hyvää huomenta, mitä kuuluu tänään?',
  pl: 'Dzień dobry, jak się pan dzisiaj czuje?',
  cs: 'Dobré ráno, jak se dnes máte?',
  sk: 'Dobré ráno, ako sa dnes máte?',
  hu: 'Jó reggelt, hogy van ma?',
  ro: 'Bună dimineața, ce mai faceți astăzi?',
  hr: 'Dobro jutro, kako ste danas?',
  bg: 'Добро утро, как сте днес?',
  ru: 'Доброе утро, как у вас дела сегодня?',
  uk: 'Доброго ранку, як ваші справи сьогодні?',
  el: 'Καλημέρα, πώς είστε σήμερα;',
  tr: 'Günaydın, bugün nasılsınız?',
  ar: 'صباح الخير، كيف حالك اليوم؟',
  he: 'בוקר טוב, מה שלומך היום?',
  hi: 'सुप्रभात, आज आप कैसे हैं?',
  zh: '早上好，你今天好吗？',
  ko: '좋은 아침입니다, 오늘 어떠세요?',
  vi: 'Chào buổi sáng, hôm nay bạn khỏe không?',
  id: 'Selamat pagi, apa kabar hari ini?',
  ca: 'Bon dia, com estàs avui?',
};

const TRICKY_TEXT = '-5 degrees outside, she said "don\'t go" <b>now</b> to the café.';
const LONG_TEXT = Array.from({ length: 40 }, (_, i) => `Sentence number ${i + 1} keeps the engine busy for a while. `).join('');

interface Subject {
  descriptor: EngineDescriptor;
  create(options: BuiltinOptions): Synthesizer;
  englishVoice: string;
  /** Runs in this process through a library: no program to wait for when cancelling. */
  inProcess?: boolean;
}

const SUBJECTS: Subject[] = [
  { descriptor: picoEngine, create: createPicoSynthesizer, englishVoice: 'pico:en-US', inProcess: true },
  { descriptor: espeakEngine, create: createEspeakSynthesizer, englishVoice: 'espeak:mb-us1', inProcess: true },
  { descriptor: festivalEngine, create: createFestivalSynthesizer, englishVoice: 'festival:kal_diphone' },
  { descriptor: fliteEngine, create: createFliteSynthesizer, englishVoice: 'flite:slt', inProcess: true },
];

const tempRoot = await mkdtemp(join(tmpdir(), 'timbre-builtin-test-'));
after(() => rm(tempRoot, { recursive: true, force: true }));

function context(signal = new AbortController().signal, progress: JobContext['progress'] = () => {}): JobContext {
  return { signal, progress };
}

function sentenceFor(voice: VoiceInfo): string {
  const sentence = SENTENCES[voice.language] ?? SENTENCES[voice.language.split('-')[0] ?? ''];
  assert.ok(sentence, `no test sentence for ${voice.language}`);
  return sentence;
}

function assertSpeech(result: SynthesisResult, voice: VoiceInfo, text: string): void {
  assert.equal(result.pcm.sampleRate, voice.sampleRate);
  assert.ok(rms(result.pcm.samples) > RMS_FLOOR, `${voice.id} is silent (rms ${rms(result.pcm.samples)})`);
  const bounds = /\p{Script=Han}/u.test(text) ? SECONDS_PER_HAN_CHAR : SECONDS_PER_CHAR;
  const perChar = durationOf(result.pcm) / [...text].length;
  assert.ok(perChar >= bounds.min && perChar <= bounds.max, `${voice.id}: ${perChar.toFixed(3)} s per character`);
  assertTimingsInside(result);
}

function assertTimingsInside(result: SynthesisResult): void {
  const duration = durationOf(result.pcm);
  for (const timing of [...(result.words ?? []), ...(result.phonemes ?? [])]) {
    assert.ok(timing.start >= 0 && timing.start <= timing.end && timing.end <= duration + 0.01, `timing ${JSON.stringify(timing)} outside ${duration} s`);
  }
}

const ENGINE_PROGRAMS = new Set(['pico2wave', 'espeak-ng', 'festival', 'flite']);

/**
 * Engine programs running as children of this process, from /proc (spawning `ps` would itself be
 * one). Other children, such as tsx's esbuild service, are not counted.
 */
function engineProcesses(): string[] {
  const children = readdirSync('/proc/self/task').flatMap((task) => readFileSync(`/proc/self/task/${task}/children`, 'utf8').split(' ').filter(Boolean));
  return children.filter((pid) => ENGINE_PROGRAMS.has(commandOf(pid)));
}

function commandOf(pid: string): string {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return ''; // exited meanwhile
  }
}

/** Resolves once an engine program is running. */
async function engineProgramStarted(): Promise<void> {
  while (engineProcesses().length === 0) await new Promise((resolve) => setImmediate(resolve));
}

// Every engine is probed before any suite is declared: a suite starts as soon as it is declared,
// and another engine's voice discovery running beside it would count as a leftover program.
const prepared = [];
for (const subject of SUBJECTS) {
  const engine = subject.descriptor.id;
  const available = await subject.descriptor.probe();
  const engineTemp = await mkdtemp(join(tempRoot, `${engine}-`));
  const synthesizer = subject.create({ tempRoot: engineTemp });
  const voices = available.available ? await synthesizer.listVoices() : [];
  prepared.push({ subject, engine, available, engineTemp, synthesizer, voices });
}

for (const { subject, engine, available, engineTemp, synthesizer, voices } of prepared) {
  describe(`${engine} synthesizer`, { skip: available.available ? false : available.reason }, () => {
    // Warm engines keep programs running between calls; they would count in the next engine's tests.
    after(() => synthesizer.dispose?.());

    test('lists voices with unique ids, a license and the English test voice', () => {
      assert.ok(voices.length > 0);
      assert.equal(new Set(voices.map((voice) => voice.id)).size, voices.length);
      for (const voice of voices) {
        assert.ok(voice.id.startsWith(`${engine}:`));
        assert.ok(voice.license.length > 0);
      }
      assert.ok(voices.some((voice) => voice.id === subject.englishVoice));
    });

    for (const voice of voices) {
      test(`${voice.id} speaks ${voice.language}`, async () => {
        const text = sentenceFor(voice);
        assertSpeech(await synthesizer.synthesize({ text, voice: voice.id }, context()), voice, text);
      });
    }

    test('speed 2 is clearly shorter than speed 1', async () => {
      const request = { text: SENTENCES.en!, voice: subject.englishVoice };
      const normal = await synthesizer.synthesize({ ...request, speed: 1 }, context());
      const fast = await synthesizer.synthesize({ ...request, speed: 2 }, context());
      assert.ok(durationOf(fast.pcm) < 0.75 * durationOf(normal.pcm), `${durationOf(fast.pcm)} s vs ${durationOf(normal.pcm)} s`);
    });

    test('quotes, tags, a leading minus and accents are spoken', async () => {
      const voice = voices.find((candidate) => candidate.id === subject.englishVoice)!;
      assertSpeech(await synthesizer.synthesize({ text: TRICKY_TEXT, voice: voice.id }, context()), voice, TRICKY_TEXT);
    });

    test('cancelling midway kills the program, rejects with the reason and leaves no files', async () => {
      const controller = new AbortController();
      const reason = new Error('cancelled by the test');
      let fractions = 0;
      const progress = (fraction: number) => {
        fractions += 1;
        // After the first piece, wait for the next piece's program to run, then cancel.
        if (fractions !== 1 || fraction >= 1) return;
        if (subject.inProcess) controller.abort(reason);
        else void engineProgramStarted().then(() => controller.abort(reason));
      };
      const running = synthesizer.synthesize({ text: LONG_TEXT, voice: subject.englishVoice }, context(controller.signal, progress));
      await assert.rejects(running, (error) => error === reason);
      assert.equal(fractions, 1);
      assert.deepEqual(await readdir(engineTemp), []);
      // A warm engine keeps its program for the next call (its own tests check that cancelling kills it).
      await synthesizer.dispose?.();
      assert.deepEqual(engineProcesses(), []);
    });

    test('an unknown voice is voice_not_found', async () => {
      for (const voice of [`${engine}:no-such-voice`, 'no-prefix', 'flite:kal', 'flite:awb_time']) {
        await assert.rejects(
          synthesizer.synthesize({ text: 'Hello.', voice }, context()),
          (error) => error instanceof EngineError && error.code === 'voice_not_found',
        );
      }
    });

    test('empty text is text_empty', async () => {
      for (const text of ['', '   \n', '...']) {
        await assert.rejects(
          synthesizer.synthesize({ text, voice: subject.englishVoice }, context()),
          (error) => error instanceof EngineError && error.code === 'text_empty',
        );
      }
    });
  });
}

// pico and eSpeak run in this process through their libraries, loaded once and kept warm.

type Timing = { start: number; end: number };

/** Timings that follow each other, each inside the audio, with a name. */
function assertOrdered(timings: (Timing & ({ phoneme: string } | { word: string }))[], duration: number): void {
  assert.ok(timings.length > 0, 'no timings');
  let previous = 0;
  for (const timing of timings) {
    assert.ok(('phoneme' in timing ? timing.phoneme : timing.word).length > 0, `unnamed ${JSON.stringify(timing)}`);
    assert.ok(
      timing.start >= previous - 1e-6 && timing.start <= timing.end && timing.end <= duration + 1e-6,
      `${JSON.stringify(timing)} after ${previous} in ${duration} s`,
    );
    previous = timing.end;
  }
}

/** Speaks each (voice, text) in turn; a voice spoken twice gives the same audio again, at the voice's own rate. */
async function assertSwitching(synthesizer: Synthesizer, voiceIds: string[], text: string): Promise<void> {
  const voices = await synthesizer.listVoices();
  const first = new Map<string, number>();
  for (const id of voiceIds) {
    const voice = voices.find((candidate) => candidate.id === id)!;
    const result = await synthesizer.synthesize({ text, voice: id }, context());
    assertSpeech(result, voice, text);
    const seconds = durationOf(result.pcm);
    const before = first.get(id) ?? seconds;
    assert.ok(Math.abs(seconds - before) <= 0.02 * before, `${id}: ${seconds} s, before ${before} s`);
    first.set(id, before);
  }
}

/** Calls made at the same time wait for each other and each gets its own voice. */
async function assertConcurrent(synthesizer: Synthesizer, voiceIds: string[], text: string): Promise<void> {
  const voices = await synthesizer.listVoices();
  const alone = await Promise.all(voiceIds.map(async (id) => durationOf((await synthesizer.synthesize({ text, voice: id }, context())).pcm)));
  const together = await Promise.all(voiceIds.map((id) => synthesizer.synthesize({ text, voice: id }, context())));
  together.forEach((result, index) => {
    const voice = voices.find((candidate) => candidate.id === voiceIds[index])!;
    assertSpeech(result, voice, text);
    assert.ok(Math.abs(durationOf(result.pcm) - alone[index]!) <= 0.02 * alone[index]!);
  });
}

const picoAvailable = prepared.find((entry) => entry.engine === 'pico')?.available;
describe('pico through libttspico', { skip: picoAvailable?.available ? false : picoAvailable?.reason }, () => {
  const synthesizer = createPicoSynthesizer({ tempRoot });
  after(() => synthesizer.dispose?.());

  test('a request sounds exactly as pico2wave says it, whatever was spoken before', async () => {
    await synthesizer.synthesize({ text: 'Something else first, to leave the engine in another state.', voice: 'pico:en-US' }, context());
    const text = SENTENCES.en!;
    const ours = (await synthesizer.synthesize({ text, voice: 'pico:en-US' }, context())).pcm.samples;
    const file = join(tempRoot, 'pico2wave.wav');
    await runProgram('pico2wave', ['-l', 'en-US', '-w', file, text]);
    const theirs = parseWav(readFileSync(file)).samples;
    assert.ok(ours.length >= theirs.length, `${ours.length} samples, pico2wave ${theirs.length}`);
    assert.deepEqual(ours.subarray(0, theirs.length), theirs);
  });

  test('switching languages between calls: each speaks the same again', async () => {
    await assertSwitching(synthesizer, ['pico:en-US', 'pico:de-DE', 'pico:en-US', 'pico:fr-FR', 'pico:de-DE'], SENTENCES.en!);
  });

  test('fifty calls in a row keep working and give the same audio', async () => {
    const lengths = new Set<number>();
    for (let call = 0; call < 50; call++) {
      const result = await synthesizer.synthesize({ text: SENTENCES.en!, voice: 'pico:en-US', speed: 1 + (call % 2) / 2 }, context());
      assert.ok(rms(result.pcm.samples) > RMS_FLOOR);
      lengths.add(result.pcm.samples.length);
    }
    assert.equal(lengths.size, 2, 'one length per speed');
  });

  test('calls at the same time wait for each other', async () => {
    await assertConcurrent(synthesizer, ['pico:en-US', 'pico:it-IT', 'pico:en-US', 'pico:es-ES'], SENTENCES.en!);
  });

  test('a piece past its time limit is stopped between library steps, and the engine speaks on', async () => {
    const before = await synthesizer.synthesize({ text: SENTENCES.en!, voice: 'pico:en-US' }, context());
    // One piece of ~900 bytes: far more than the 20 ms of work after which pico lets the timer in.
    const long = `${'one more word and '.repeat(50)}done.`;
    const limited = createPicoSynthesizer({ tempRoot, pieceTimeoutMs: 1 });
    await limited.listVoices(); // the library is already open: the piece starts within the millisecond
    await assert.rejects(
      limited.synthesize({ text: long, voice: 'pico:en-US' }, context()),
      (error) => error instanceof EngineError && error.code === 'engine_piece_timeout',
    );
    await limited.dispose?.();
    const after = await synthesizer.synthesize({ text: SENTENCES.en!, voice: 'pico:en-US' }, context());
    assert.deepEqual(after.pcm.samples, before.pcm.samples);
  });
});

const espeakAvailable = prepared.find((entry) => entry.engine === 'espeak')?.available;
describe('eSpeak through libespeak-ng', { skip: espeakAvailable?.available ? false : espeakAvailable?.reason }, () => {
  const synthesizer = createEspeakSynthesizer({ tempRoot });
  after(() => synthesizer.dispose?.());

  test('MBROLA voices: phoneme timings ordered, inside the audio, where `espeak-ng --pho` puts them', async () => {
    const text = SENTENCES.en!;
    const result = await synthesizer.synthesize({ text, voice: 'espeak:mb-us1' }, context());
    const phonemes = result.phonemes ?? [];
    assertOrdered(phonemes, durationOf(result.pcm));
    assert.equal(result.words, undefined, 'MBROLA voices have no word events to time words with');
    // The .pho MBROLA is given names its own phonemes (`@U`) where the library names IPA ones (`oʊ`), and
    // splits a few (`ɛɹ` is `E r`); the times are the same.
    const pho = parsePho((await runProgram('espeak-ng', ['-v', 'mb-us1', '-q', '--pho', text])).stdout.toString('utf8'));
    const boundaries = pho.flatMap((timing) => [timing.start, timing.end]);
    for (const phoneme of phonemes) {
      assert.ok(
        boundaries.some((boundary) => Math.abs(boundary - phoneme.start) < 0.01),
        `${JSON.stringify(phoneme)} starts where no .pho phoneme does`,
      );
    }
    assert.ok(Math.abs(phonemes.at(-1)!.end - pho.at(-1)!.end) < 0.01);
    assert.ok(Math.abs(phonemes.length - pho.length) <= pho.length / 4, `${phonemes.length} phonemes, .pho has ${pho.length}`);
  });

  test('formant voices: word and phoneme timings, ordered and inside the audio', async () => {
    const result = await synthesizer.synthesize({ text: SENTENCES.en!, voice: 'espeak:en-us' }, context());
    const duration = durationOf(result.pcm);
    const words = result.words ?? [];
    assert.deepEqual(
      words.map((word) => word.word),
      ['The', 'quick', 'brown', 'fox', 'jumps', 'over', 'the', 'lazy', 'dog'],
    );
    assertOrdered(words, duration);
    assertOrdered(result.phonemes ?? [], duration);
    for (const word of words)
      assert.ok(
        result.phonemes!.some((phoneme) => phoneme.start >= word.start && phoneme.end <= word.end),
        word.word,
      );
  });

  test('speed 2 is clearly shorter than speed 1 with a formant voice too', async () => {
    const request = { text: SENTENCES.en!, voice: 'espeak:en-us' };
    const normal = await synthesizer.synthesize({ ...request, speed: 1 }, context());
    const fast = await synthesizer.synthesize({ ...request, speed: 2 }, context());
    assert.ok(durationOf(fast.pcm) < 0.75 * durationOf(normal.pcm), `${durationOf(fast.pcm)} s vs ${durationOf(normal.pcm)} s`);
  });

  test('switching voices between calls: MBROLA and formant voices each at their own rate', async () => {
    await assertSwitching(synthesizer, ['espeak:mb-us1', 'espeak:en-us', 'espeak:mb-us1', 'espeak:de', 'espeak:mb-de1', 'espeak:en-us'], SENTENCES.en!);
  });

  test('fifty calls in a row, switching voices, keep working', async () => {
    for (let call = 0; call < 50; call++) {
      const voice = call % 5 === 0 ? 'espeak:mb-us1' : 'espeak:en-us';
      const result = await synthesizer.synthesize({ text: `Call number ${call}.`, voice }, context());
      assert.ok(rms(result.pcm.samples) > RMS_FLOOR, `call ${call} is silent`);
      assert.ok((result.phonemes?.length ?? 0) > 0);
    }
  });

  test('calls at the same time wait for each other', async () => {
    await assertConcurrent(synthesizer, ['espeak:mb-us1', 'espeak:en-us', 'espeak:mb-us1', 'espeak:fr-fr'], SENTENCES.en!);
  });

  test('markup in the text is read as text, not obeyed', async () => {
    // As SSML, the break would be five seconds of silence and the phonemes a word.
    const text = 'Wait <break time="5s"/> here [[h@loU]].';
    const result = await synthesizer.synthesize({ text, voice: 'espeak:en-us' }, context());
    assert.ok(durationOf(result.pcm) < 5, `${durationOf(result.pcm)} s`);
    // Read as text, the phoneme string is a word of its own (spelled out), the brackets dropped as punctuation.
    const words = (result.words ?? []).map((word) => word.word);
    assert.ok(words.includes('h@loU'), `words: ${words.join(' ')}`);
  });
});
