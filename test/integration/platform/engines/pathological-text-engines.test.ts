import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parseWav } from '../../../../src/platform/audio/wav.js';
import { engineErrorStatus } from '../../../../src/platform/engines/error-status.js';
import { EngineHost } from '../../../../src/platform/engines/host/supervisor.js';
import type { EngineId } from '../../../../src/platform/engines/engine-ids.js';
import type { SynthesisRequest } from '../../../../src/platform/engines/types.js';
import { EngineError } from '../../../../src/platform/errors.js';
import { REFERENCE_AUDIO } from '../../../helpers/paths.js';
import { buildKitten } from '../../../helpers/stand-in-kitten.js';
import { buildKokoro, buildPocket } from '../../../helpers/stand-in-models.js';
import { buildVits } from '../../../helpers/stand-in-vits.js';
import { buildZipVoice } from '../../../helpers/stand-in-zipvoice.js';
import { removeDir, tempDir } from '../../../helpers/timbre.js';

/**
 * Text a user can type, given to every engine and voice family through the engine host, as the
 * service gives it: each answer is audio, or an error the API answers with a 4xx and a message that
 * says why; never a 5xx, and the host never restarts (a crash would restart it). The neural engines
 * run on stand-in models: their sound means nothing, but their text front ends (the eSpeak NG inside
 * sherpa-onnx, Kokoro's lexicons) are the real ones.
 */

/** Short texts, where the point is the kind of character: every voice below hears all of them. */
const CHARACTERS: Record<string, string> = {
  'é alone': 'é',
  Japanese: 'こんにちは',
  Greek: 'Ελληνικά',
  Chinese: '中文',
  'mixed scripts': 'Hello Ελληνικά 中文 こんにちは Привет مرحبا.',
  'combining marks': `Zalgo ${'a\u0301\u0302\u0303\u0304'.repeat(8)} e${'\u0300'.repeat(40)}.`,
  'lone combining marks': '\u0301\u0302 \u0308',
  emoji: '😀🎉👍🏽 👩‍👩‍👧‍👦',
  'emoji in text': 'Hello 😀 world 👩‍👩‍👧‍👦 again.',
  'zero-width joiners': `a\u200db\u200dc ${'\u200d\u200c\u200b\ufeff'.repeat(20)}x`,
  'five thousand !': '!'.repeat(5000),
  '<speak>': '<speak>Hello <break time="1s"/> world</speak>',
  '<break/> alone': '<break time="1s"/>',
  '0"?><!D': '0"?><!D',
  'XML declaration': '<?xml version="1.0"?><!DOCTYPE speak><speak><prosody rate="x-slow">Hi</prosody></speak>',
  'Scheme call': '(SayText "x")',
  'Scheme escape': '")(quit)(SayText "',
  'quotes and backslashes': `"'\`\\ "quoted" 'single' back\\slash \\\\ \\" \\n end`,
  'only quotes': `" ' " \\ "`,
  'punctuation soup': `0"? !D . ? ! , ; : - ( ) [ ] { } " ' < > / \\ | @ # $ % ^ & * + = ~ \` _ x`,
  'control characters': 'a\u0000b\u0007c\u001b[31md\u007fe\u0085f',
  'lone surrogates': 'x\ud800y\udc00z',
  'bidi controls': '\u202eevil\u202c \u200fhello\u200e',
  'full-width and mathematical letters': 'ＡＢＣ１２３ 𝐇𝐞𝐥𝐥𝐨',
};

/** Chains of dotted letters, which eSpeak NG (the library here, and the one inside sherpa-onnx) aborted on: for the voices it phonemizes. */
const DOTTED_CHAINS: Record<string, string> = {
  'dotted letters with semicolons': 'a.;'.repeat(60),
  'doubled dots': 'a..'.repeat(60),
  'e.g. chain': 'e.g. '.repeat(40),
};

/** Long texts, where the point is the length: one voice per family, and only the first pieces are waited for. */
const LENGTHS: Record<string, string> = {
  'ten thousand digits': '7'.repeat(10_000),
  '50 KB of one word': 'a'.repeat(50_000),
  '20 KB of sentences': 'The cat sat. '.repeat(1_540),
};

const SENTENCE = 'The quick brown fox jumps over the lazy dog.';
/** Codes a text may be refused with here: the request had nothing speakable, or one piece took too long. */
const REFUSALS = new Set(['text_empty', 'text_not_speakable', 'engine_piece_timeout']);

interface Speaker {
  engine: EngineId;
  voice: string;
  /** What the voice needs besides the text (a reference recording for the cloning engines). */
  extra?: Partial<SynthesisRequest>;
}

interface Outcome {
  status: number;
  code?: string;
  message?: string;
  /** Seconds of audio, for a 200. */
  seconds?: number;
}

const hostOptions = (modelsDir: string, pieceTimeoutSeconds: number) => ({
  modelsDir,
  poolSize: 1,
  jobTimeoutMs: 300_000,
  pieceTimeoutSeconds,
  idleUnloadSeconds: 600,
  memoryLimitBytes: 4 * 1024 * 1024 * 1024,
  cancelGraceMs: 60_000,
});

/** The answer the API would give: 200 with the audio's length, or the error's status, code and message. */
async function outcome(host: EngineHost, speaker: Speaker, text: string): Promise<Outcome> {
  try {
    const { pcm } = await host.synthesize(speaker.engine, { voice: speaker.voice, text, ...speaker.extra });
    return { status: 200, seconds: pcm.samples.length / pcm.sampleRate };
  } catch (error) {
    assert.ok(error instanceof EngineError, String(error));
    return { status: engineErrorStatus(error.code), code: error.code, message: error.message };
  }
}

function assertAnswered(result: Outcome, what: string): void {
  const said = `${what}: ${JSON.stringify(result)}`;
  if (result.status === 200) return assert.ok(result.seconds! > 0, said);
  assert.ok(result.status >= 400 && result.status < 500, said);
  assert.ok(REFUSALS.has(result.code!), said);
  assert.ok(result.message && result.message.length > 10, said);
}

describe('text a user can type, to every engine and voice family', { timeout: 1_200_000 }, () => {
  let modelsDir: string;
  let host: EngineHost;
  let neural: Speaker[];

  before(async () => {
    modelsDir = await tempDir('timbre-pathological-models-');
    // The folders the service looks in for each family (catalog names).
    await buildKokoro(join(modelsDir, 'kokoro-multi-lang-v1_0-int8'), { lexiconZh: true });
    await buildKitten(join(modelsDir, 'kitten-nano-en-v0_2-fp16'));
    await buildVits(join(modelsDir, 'piper-en-us-lessac-medium'));
    await buildZipVoice(join(modelsDir, 'zipvoice-distill-int8-zh-en-emilia'));
    await buildPocket(join(modelsDir, 'pocket-tts-int8'));
    host = new EngineHost(hostOptions(modelsDir, 30));
    const referenceAudio = parseWav(await readFile(join(REFERENCE_AUDIO, 'jfk.wav')));
    const [piper] = await host.listVoices('vits');
    neural = [
      { engine: 'kokoro', voice: 'kokoro:af_heart' },
      { engine: 'kitten', voice: 'kitten:expr-voice-2-f' },
      { engine: 'vits', voice: piper!.id },
      { engine: 'zipvoice', voice: 'zipvoice:reference', extra: { referenceAudio, referenceText: 'And so, my fellow Americans.' } },
      { engine: 'pocket-tts', voice: 'pocket-tts:reference', extra: { referenceAudio } },
    ];
  });
  after(async () => {
    await host.close();
    await removeDir(modelsDir);
  });

  /** Every voice of the engine, or those of `only` it has. */
  const voicesOf = async (engine: EngineId, only?: string[]): Promise<Speaker[]> =>
    (await host.listVoices(engine)).filter((voice) => !only || only.includes(voice.id)).map((voice) => ({ engine, voice: voice.id }));

  /** Every short text (and the dotted chains, for a voice eSpeak NG phonemizes) to the speaker; the answers by text. */
  async function hearAll(speaker: Speaker): Promise<Record<string, Outcome>> {
    const answers: Record<string, Outcome> = {};
    const phonemizedByEspeak = !['pico', 'flite', 'festival', 'rhvoice', 'openjtalk'].includes(speaker.engine);
    for (const [name, text] of Object.entries({ ...CHARACTERS, ...(phonemizedByEspeak ? DOTTED_CHAINS : {}) })) {
      answers[name] = await outcome(host, speaker, text);
      assertAnswered(answers[name], `${speaker.voice}, ${name}`);
    }
    assertAnswered(await outcome(host, speaker, SENTENCE), `${speaker.voice} after the others`);
    return answers;
  }

  test('RHVoice: accented letters are read, other scripts refused naming them (it answered 500 to text with no Latin letter)', async () => {
    const voices = await voicesOf('rhvoice');
    assert.ok(voices.length >= 6, voices.map((speaker) => speaker.voice).join(', '));
    for (const speaker of voices) {
      const answers = await hearAll(speaker);
      for (const name of ['é alone', 'mixed scripts', 'emoji in text']) assert.equal(answers[name]!.status, 200, `${speaker.voice}, ${name}`);
      for (const [name, script] of [
        ['Greek', 'Greek'],
        ['Japanese', 'Hiragana'],
        ['Chinese', 'Han'],
      ]) {
        assert.equal(answers[name!]!.code, 'text_not_speakable', `${speaker.voice}, ${name}`);
        assert.match(answers[name!]!.message!, new RegExp(`${speaker.voice}.*reads Latin.*${script}`));
      }
    }
  });

  test('Festival: every voice says markup-like and punctuation-only text (the diphone voices crashed on it)', async () => {
    const voices = await voicesOf('festival');
    assert.equal(voices.length, 3);
    for (const speaker of voices) {
      const answers = await hearAll(speaker);
      for (const name of ['0"?><!D', 'XML declaration', 'punctuation soup', '<speak>', 'Scheme call']) {
        assert.equal(answers[name]!.status, 200, `${speaker.voice}, ${name}: ${JSON.stringify(answers[name])}`);
      }
      assert.equal(answers.Greek!.code, 'text_not_speakable');
    }
  });

  test('Pico, Flite, eSpeak NG, MBROLA and Open JTalk: audio or a clear refusal for every kind of character', async () => {
    const speakers = [
      ...(await voicesOf('pico')),
      ...(await voicesOf('flite', ['flite:slt', 'flite:kal', 'flite:kal16'])),
      ...(await voicesOf('espeak', ['espeak:en-us', 'espeak:mb-us1', 'espeak:mb-en1', 'espeak:mb-de1'])),
      ...(await voicesOf('openjtalk')),
    ];
    assert.ok(speakers.length >= 12, speakers.map((speaker) => speaker.voice).join(', '));
    for (const speaker of speakers) {
      const answers = await hearAll(speaker);
      if (speaker.engine === 'espeak') for (const name of ['dotted letters with semicolons', 'doubled dots']) assert.equal(answers[name]!.status, 200, name);
      if (['pico', 'flite'].includes(speaker.engine)) assert.equal(answers.Greek!.code, 'text_not_speakable', speaker.voice);
    }
  });

  test('neural engines: dotted chains and scripts their lexicons lack (a crash of the host, or a 500)', async () => {
    for (const speaker of neural) {
      const answers = await hearAll(speaker);
      assert.equal(answers['e.g. chain']!.status, 200, speaker.voice);
    }
  });

  test('long texts: the first pieces are spoken or the text refused, and nothing crashed the host', async () => {
    const lengthHost = new EngineHost(hostOptions(modelsDir, 2));
    try {
      const speakers = [
        ...(await voicesOf('pico', ['pico:en-US'])),
        ...(await voicesOf('espeak', ['espeak:en-us', 'espeak:mb-us1'])),
        ...(await voicesOf('festival', ['festival:kal_diphone'])),
        ...(await voicesOf('flite', ['flite:slt'])),
        ...(await voicesOf('rhvoice', ['rhvoice:slt'])),
        ...(await voicesOf('openjtalk')),
        ...neural,
      ];
      assert.equal(speakers.length, 12, speakers.map((speaker) => speaker.voice).join(', '));
      for (const speaker of speakers) {
        for (const [name, text] of Object.entries(LENGTHS)) await assertFirstPieces(lengthHost, speaker, text, `${speaker.voice}, ${name}`);
        assertAnswered(await outcome(lengthHost, speaker, SENTENCE), `${speaker.voice} after the long texts`);
      }
      assert.equal(lengthHost.status().restarts, 0, 'an engine crashed the host');
    } finally {
      await lengthHost.close();
    }
  });

  test('the host never restarted: no text crashed it', () => {
    assert.equal(host.status().restarts, 0);
  });
});

/**
 * Speaks a long text until its first piece has been heard, then cancels (all of it would take
 * minutes; the pieces after it are alike): the answer must be audio, a 4xx, or that cancellation.
 */
async function assertFirstPieces(host: EngineHost, speaker: Speaker, text: string, what: string): Promise<void> {
  const controller = new AbortController();
  let heard = 0;
  const onAudio = ({ pcm }: { pcm: { samples: Float32Array } }) => {
    if (pcm.samples.length > 0 && ++heard === 1) controller.abort(new EngineError('cancelled', 'heard enough'));
  };
  try {
    await host.synthesize(speaker.engine, { voice: speaker.voice, text, ...speaker.extra }, { signal: controller.signal, onAudio });
    assert.ok(heard > 0, `${what}: no audio`);
  } catch (error) {
    assert.ok(error instanceof EngineError, `${what}: ${String(error)}`);
    if (error.code === 'cancelled') return assert.ok(heard >= 1, `${what}: cancelled before audio`);
    assertAnswered({ status: engineErrorStatus(error.code), code: error.code, message: error.message }, what);
  }
}
