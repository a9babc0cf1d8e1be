import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ClearVoices, type HeardVoice } from '../../../../src/features/cloning/clear-voices.js';
import { BaseRates, INTELLIGIBILITY_MARGIN, IntelligibilityCheck } from '../../../../src/features/cloning/intelligibility.js';
import type { Pcm } from '../../../../src/platform/audio/pcm.js';

const ENGINES = ['espeak', 'flite', 'rhvoice', 'pico', 'festival'];

/** Voices whose probes the recognizer hears at the given word error rates, counting what it hears. */
function voicesAt(rates: readonly number[]) {
  const rateOf = new Map<Pcm, number>();
  const voices: HeardVoice[] = rates.map((rate, i) => {
    const probe = { samples: new Float32Array(1), sampleRate: 16000 };
    rateOf.set(probe, rate);
    return { voice: { id: `voice-${i}`, engine: ENGINES[i % ENGINES.length]! }, probe };
  });
  const heard = { count: 0 };
  const judge = {
    recognizer: 'test',
    wordErrorRate: (pcm: Pcm) => {
      heard.count++;
      return Promise.resolve(rateOf.get(pcm)!);
    },
  };
  return { voices, heard, check: new IntelligibilityCheck(judge, new BaseRates(), 'test|en') };
}

/** A small deterministic generator, so a failure names the case that failed. */
function* cases(): Generator<number[]> {
  let state = 7;
  const next = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let n = 0; n < 300; n++) yield Array.from({ length: 1 + Math.floor(next() * 20) }, () => Math.round(next() * 8) / 10);
}

test('a voice is clear exactly when its rate is within the margin of the clearest of all, as if every voice were heard first', async () => {
  for (const rates of cases()) {
    const { voices, check } = voicesAt(rates);
    const clear = new ClearVoices(check, voices);
    const clearest = Math.min(...rates);
    for (const [i, voice] of voices.entries()) {
      assert.equal(await clear.isClear(voice), rates[i]! <= clearest + INTELLIGIBILITY_MARGIN + 1e-9, `rates ${rates.join(' ')}, voice ${i}`);
    }
  }
});

test('deciding a few candidates hears only them once a clear voice is heard, and each voice once', async () => {
  // RHVoice (index 2) is heard first when a candidate's rate is in doubt: it is the clearest engine here.
  const rates = [0.3, 0.15, 0, 0.05, 0.4, 0.12, 0.2, 0.5, 0.08, 0.35];
  const { voices, heard, check } = voicesAt(rates);
  const clear = new ClearVoices(check, voices);
  assert.equal(await clear.isClear(voices[1]!), false, 'out of the margin once the clearest is heard');
  assert.equal(heard.count, 2);
  assert.equal(await clear.isClear(voices[3]!), true);
  assert.equal(await clear.isClear(voices[1]!), false);
  assert.equal(heard.count, 3, 'each voice is heard once');
});
