import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { readFile } from 'node:fs/promises';
import { parseWav } from '../../../../src/platform/audio/wav.js';
import { espeakEngine } from '../../../../src/platform/engines/espeak.js';
import { festivalEngine } from '../../../../src/platform/engines/festival.js';
import { fliteEngine } from '../../../../src/platform/engines/flite.js';
import { picoEngine } from '../../../../src/platform/engines/pico.js';
import type { EngineDescriptor, Synthesizer, VoicePrint, VoicePrinter } from '../../../../src/platform/engines/types.js';
import { acousticVoiceprintEngine } from '../../../../src/platform/engines/voiceprint.js';
import { acousticCheckEngine } from '../../../../src/platform/engines/voiceprint-check.js';
import { REFERENCE_AUDIO } from '../../../helpers/paths.js';

/**
 * Both acoustic prints (the fitting one and the check one that reports clones' similarity) tell the
 * English built-in voices apart: for every pair, two different sentences of one voice are more
 * alike than any sentence of one voice and any of the other.
 */

const SENTENCES = [
  'The quiet river carried fallen leaves past the old stone bridge every autumn.',
  'Please remember to bring your umbrella because the forecast promises heavy rain tomorrow.',
];

/**
 * Voices built from one recorded speaker's data: the same MBROLA database behind espeak and
 * Festival, CSTR's "Roger" diphones behind both rab_diphone and MBROLA en1, the kal diphones in
 * Festival and Flite, the CMU Arctic SLT recordings in Festival (HTS) and Flite. A voice print is
 * right to find them alike, so they are reported, not asserted.
 */
const SAME_SPEAKER = [
  ['espeak:mb-us1', 'festival:us1_mbrola'],
  ['espeak:mb-us2', 'festival:us2_mbrola'],
  ['espeak:mb-us3', 'festival:us3_mbrola'],
  ['espeak:mb-en1', 'festival:en1_mbrola', 'festival:rab_diphone'],
  ['festival:kal_diphone', 'flite:kal16'],
  ['festival:cmu_us_slt_arctic_hts', 'flite:slt'],
];

const sameSpeaker = (a: string, b: string) => SAME_SPEAKER.some((group) => group.includes(a) && group.includes(b));
const context = { signal: new AbortController().signal, progress() {} };
const REFERENCE_DIR = REFERENCE_AUDIO;

/** Two prints per English voice, one per sentence. */
async function printVoices(descriptor: EngineDescriptor<Synthesizer>, printer: VoicePrinter): Promise<Map<string, VoicePrint[]>> {
  const prints = new Map<string, VoicePrint[]>();
  if (!(await descriptor.probe()).available) return prints;
  const engine = await descriptor.load();
  for (const voice of (await engine.listVoices()).filter((info) => info.language.startsWith('en'))) {
    const pair: VoicePrint[] = [];
    for (const text of SENTENCES) {
      const { pcm } = await engine.synthesize({ text, voice: voice.id }, context);
      pair.push(await printer.extract(pcm, context));
    }
    prints.set(voice.id, pair);
  }
  return prints;
}

for (const printerEngine of [acousticVoiceprintEngine, acousticCheckEngine])
  describe(`${printerEngine.id} over the built-in voices`, () => {
    let printer: VoicePrinter;
    let prints: Map<string, VoicePrint[]>;

    before(async () => {
      printer = await printerEngine.load();
      const engines = [picoEngine, espeakEngine, festivalEngine, fliteEngine];
      const perEngine = await Promise.all(engines.map((descriptor) => printVoices(descriptor, printer)));
      prints = new Map(perEngine.flatMap((map) => [...map]));
    });

    it('finds two sentences of one voice more alike than two voices, for every pair', (t) => {
      const voices = [...prints.keys()].sort();
      assert.ok(voices.length >= 2, 'needs at least two English voices');
      const same = new Map(voices.map((voice) => [voice, printer.similarity(prints.get(voice)![0]!, prints.get(voice)![1]!)]));
      const failures: string[] = [];
      for (const [i, a] of voices.entries()) {
        for (const b of voices.slice(i + 1)) {
          const cross = Math.max(...prints.get(a)!.flatMap((x) => prints.get(b)!.map((y) => printer.similarity(x, y))));
          const margin = Math.min(same.get(a)!, same.get(b)!) - cross;
          const line = `${a} / ${b}: same ≥ ${Math.min(same.get(a)!, same.get(b)!).toFixed(3)}, cross ≤ ${cross.toFixed(3)}, margin ${margin.toFixed(3)}`;
          if (sameSpeaker(a, b)) t.diagnostic(`same recorded speaker, not asserted: ${line}`);
          else if (margin <= 0) failures.push(line);
          else t.diagnostic(line);
        }
      }
      assert.deepEqual(failures, []);
    });

    it('rates a print against itself 1 and refuses prints of another method', () => {
      const [first] = prints.values().next().value as VoicePrint[];
      assert.ok(Math.abs(printer.similarity(first!, first!) - 1) < 1e-9);
      assert.throws(() => printer.similarity(first!, { method: 'other', vector: first!.vector }), new RegExp(first!.method));
    });

    it('tells the two reference recordings apart better than halves of one', async (t) => {
      const halves = async (name: string) => {
        const pcm = parseWav(await readFile(`${REFERENCE_DIR}/${name}`));
        const middle = Math.floor(pcm.samples.length / 2);
        const [whole, first, second] = [pcm.samples, pcm.samples.subarray(0, middle), pcm.samples.subarray(middle)];
        return Promise.all([whole, first, second].map((samples) => printer.extract({ samples, sampleRate: pcm.sampleRate }, context)));
      };
      const [jfk, lj] = await Promise.all([halves('jfk.wav'), halves('LJ001-0001.wav')]);
      const cross = printer.similarity(jfk[0]!, lj[0]!);
      const jfkHalves = printer.similarity(jfk[1]!, jfk[2]!);
      const ljHalves = printer.similarity(lj[1]!, lj[2]!);
      t.diagnostic(`jfk vs LJ ${cross.toFixed(3)}; jfk halves ${jfkHalves.toFixed(3)}; LJ halves ${ljHalves.toFixed(3)}`);
      t.diagnostic(
        `jfk vs its halves ${printer.similarity(jfk[0]!, jfk[1]!).toFixed(3)} ${printer.similarity(jfk[0]!, jfk[2]!).toFixed(3)}; LJ vs its halves ${printer.similarity(lj[0]!, lj[1]!).toFixed(3)} ${printer.similarity(lj[0]!, lj[2]!).toFixed(3)}`,
      );
      assert.ok(Math.min(jfkHalves, ljHalves) > cross);
    });
  });
