import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Pcm } from '../../../../src/platform/audio/pcm.js';
import {
  BaseRates,
  firstIntelligible,
  INTELLIGIBILITY_MARGIN,
  IntelligibilityCheck,
  intelligibilityWarnings,
  keepsItsWords,
  MAX_CHECKS,
  MAX_PROBE_WER,
  publicIntelligibility,
  type Intelligibility,
} from '../../../../src/features/cloning/intelligibility.js';

/** A rendering the fake recognizer "hears" with a given word error rate (carried in its first sample). */
const rendering = (wordErrorRate: number): Pcm => ({ samples: Float32Array.of(wordErrorRate), sampleRate: 16000 });
const measured = (wordErrorRate: number, baseWordErrorRate: number | null): Intelligibility => ({
  wordErrorRate,
  baseWordErrorRate,
  recognizer: 'pocketsphinx',
});

async function* each<T>(items: T[]) {
  yield* items;
}

describe('intelligibility of clones and designs', () => {
  test('a voice keeps its words within the margin of its base voice, or under the fixed limit without one', () => {
    assert.ok(keepsItsWords(measured(0.2 + INTELLIGIBILITY_MARGIN, 0.2)));
    assert.ok(!keepsItsWords(measured(0.21 + INTELLIGIBILITY_MARGIN, 0.2)));
    assert.ok(keepsItsWords(measured(MAX_PROBE_WER, null)));
    assert.ok(!keepsItsWords(measured(MAX_PROBE_WER + 0.01, null)));
  });

  test('the recognizer hears each base voice once, however many candidates share it', async () => {
    let heard = 0;
    const judge = {
      recognizer: 'pocketsphinx',
      wordErrorRate: async (pcm: Pcm) => {
        heard++;
        return pcm.samples[0]!;
      },
    };
    const rates = new BaseRates();
    const check = new IntelligibilityCheck(judge, rates, 'pocketsphinx|en');
    // Rates a Float32Array holds exactly.
    const base = { id: 'flite:slt', probe: rendering(0.125) };
    assert.deepEqual(await check.measure(rendering(0.25), base), measured(0.25, 0.125));
    assert.deepEqual(await check.measure(rendering(0.5), base), measured(0.5, 0.125));
    assert.equal(heard, 3);
    const nextClone = new IntelligibilityCheck(judge, rates, 'pocketsphinx|en');
    assert.equal(await nextClone.baseRate({ id: 'flite:slt', probe: () => Promise.reject(new Error('not spoken again')) }), 0.125);
    assert.equal(heard, 3, 'a later clone reuses the rate');
  });

  test('a base rate that failed (a cancelled clone) is asked again next time', async () => {
    const rates = new BaseRates();
    await assert.rejects(rates.of('key', () => Promise.reject(new Error('cancelled'))));
    assert.equal(await rates.of('key', async () => 0.5), 0.5);
  });

  test('the first candidate that keeps its words is chosen, and later ones are never rendered', async () => {
    const produced: string[] = [];
    async function* candidates() {
      for (const [name, rate] of [
        ['similar but garbled', 0.6],
        ['clear', 0.25],
        ['never needed', 0],
      ] as const) {
        produced.push(name);
        yield { name, rate };
      }
    }
    const found = await firstIntelligible(candidates(), async (candidate) => measured(candidate.rate, 0.2));
    assert.equal(found?.chosen.name, 'clear');
    assert.deepEqual(produced, ['similar but garbled', 'clear']);
  });

  test('when none keeps its words, the clearest of the first few checked is kept', async () => {
    const rates = [0.9, 0.5, 0.7, 0.6, 0.1];
    const found = await firstIntelligible(each(rates), async (rate) => measured(rate, 0));
    assert.equal(MAX_CHECKS, 4, 'the fifth candidate is beyond the budget');
    assert.equal(found?.chosen, 0.5);
    assert.equal(await firstIntelligible(each([]), async (rate: number) => measured(rate, 0)), undefined);
  });

  test('a voice that lost words says so with low_intelligibility; one that kept them says nothing', () => {
    assert.deepEqual(intelligibilityWarnings(measured(0.25, 0.2)), []);
    assert.deepEqual(intelligibilityWarnings(undefined), []);
    const [warning] = intelligibilityWarnings(measured(0.6, 0.2));
    assert.equal(warning?.code, 'low_intelligibility');
    assert.match(warning.message, /60 %.*20 %/);
    assert.deepEqual(warning?.details, { word_error_rate: 0.6, base_word_error_rate: 0.2, margin: INTELLIGIBILITY_MARGIN });
  });

  test('the record shows word accuracy next to its base voice’s, and which recognizer heard it', () => {
    assert.deepEqual(publicIntelligibility(measured(0.25, 0.1)), {
      intelligibility: 0.75,
      baseline_intelligibility: 0.9,
      intelligibility_measure: 'pocketsphinx word accuracy on the probe sentences',
    });
    assert.equal(publicIntelligibility(measured(1.4, null)).intelligibility, 0, 'insertions never make it negative');
    assert.deepEqual(publicIntelligibility(undefined), { intelligibility: null, baseline_intelligibility: null, intelligibility_measure: null });
  });
});
