import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { pitchStats } from '../../../../src/platform/audio/analyse/index.js';
import { durationOf } from '../../../../src/platform/audio/pcm.js';
import { createRhvoiceSynthesizer, rhvoiceEngine } from '../../../../src/platform/engines/rhvoice.js';
import type { JobContext, SynthesisRequest } from '../../../../src/platform/engines/types.js';
import { EngineError } from '../../../../src/platform/errors.js';

const TEXT = 'Clear speech matters more than anything else. Every word should be heard.';

describe('RHVoice through its library', () => {
  const synthesizer = createRhvoiceSynthesizer();
  after(() => synthesizer.dispose?.());
  const context = (signal = new AbortController().signal): JobContext => ({ signal, progress: () => undefined });
  const speak = (request: Partial<SynthesisRequest> = {}, signal?: AbortSignal) =>
    synthesizer.synthesize({ voice: 'rhvoice:slt', text: TEXT, language: 'en-US', ...request }, context(signal));

  test('is available, and lists the English voices with their own licenses', async () => {
    assert.deepEqual(await rhvoiceEngine.probe(), { available: true });
    const voices = await synthesizer.listVoices();
    const byId = new Map(voices.map((voice) => [voice.id, voice]));
    for (const id of ['rhvoice:alan', 'rhvoice:bdl', 'rhvoice:clb', 'rhvoice:slt']) assert.equal(byId.get(id)?.license, 'LGPL-2.1+', id);
    // Debian ships these two under their authors' non-commercial terms.
    assert.equal(byId.get('rhvoice:lyubov')?.license, 'CC-BY-NC-ND-4.0');
    assert.deepEqual([byId.get('rhvoice:slt')?.gender, byId.get('rhvoice:alan')?.gender], ['female', 'male']);
  });

  test('speed and pitch are the voice’s own rate and pitch scaled', async () => {
    const normal = await speak();
    const fast = await speak({ speed: 2 });
    const high = await speak({ pitch: 1.5 });
    const ratio = durationOf(fast.pcm) / durationOf(normal.pcm);
    assert.ok(ratio > 0.4 && ratio < 0.6, `speed 2 gives ${ratio} of the duration`);
    const shift = pitchStats(high.pcm).medianHz / pitchStats(normal.pcm).medianHz;
    assert.ok(shift > 1.3 && shift < 1.7, `pitch 1.5 moves the median F0 by ${shift}`);
  });

  test('the same request gives the same samples (a warm engine keeps no state between requests)', async () => {
    const [first, second] = [await speak(), await speak()];
    assert.deepEqual(first.pcm.samples, second.pcm.samples);
    assert.deepEqual(first.words, second.words);
  });

  test('a cancelled request stops with the signal’s reason, and the engine speaks on afterwards', async () => {
    const controller = new AbortController();
    controller.abort(new EngineError('cancelled', 'stop'));
    await assert.rejects(speak({}, controller.signal), { code: 'cancelled' });
    assert.ok(durationOf((await speak({ text: 'Still here.' })).pcm) > 0.3);
  });

  test('text with nothing to speak is refused', async () => {
    await assert.rejects(speak({ text: '... !!! ???' }), { code: 'text_empty' });
  });
});
