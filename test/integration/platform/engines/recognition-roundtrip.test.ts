import assert from 'node:assert/strict';
import { test } from 'node:test';
import { espeakEngine } from '../../../../src/platform/engines/espeak.js';
import { festivalEngine } from '../../../../src/platform/engines/festival.js';
import { fliteEngine } from '../../../../src/platform/engines/flite.js';
import { picoEngine } from '../../../../src/platform/engines/pico.js';
import { pocketsphinxEngine, WER_THRESHOLDS } from '../../../../src/platform/engines/pocketsphinx.js';
import type { EngineDescriptor, JobContext, Recognizer, Synthesizer } from '../../../../src/platform/engines/types.js';
import { wordErrorRate } from '../../../../src/platform/text/wer.js';

/**
 * Synthesize, then recognise: PocketSphinx must understand each built-in English voice about as
 * well as when the thresholds were measured. A drop means a synthesizer (or the recogniser, or the
 * audio path between them) got worse. Thresholds and measured values: WER_THRESHOLDS.
 */

/** The research notes' five sentences: 41 common words, no numbers or names. */
const SENTENCES = [
  'The quick brown fox jumps over the lazy dog.',
  'Please call me tomorrow at the office.',
  'Open the door and turn on the lights.',
  'It is going to rain later this afternoon.',
  'She bought three apples and a loaf of bread.',
];

const VOICES: Array<{ voice: keyof typeof WER_THRESHOLDS; engine: EngineDescriptor<Synthesizer> }> = [
  { voice: 'pico:en-US', engine: picoEngine },
  { voice: 'espeak:mb-us1', engine: espeakEngine },
  { voice: 'espeak:mb-us2', engine: espeakEngine },
  { voice: 'festival:cmu_us_slt_arctic_hts', engine: festivalEngine },
  { voice: 'flite:slt', engine: fliteEngine },
  { voice: 'flite:kal16', engine: fliteEngine },
];

const context: JobContext = { signal: new AbortController().signal, progress: () => {} };

const sphinx = await pocketsphinxEngine.probe();
const recognizer: Recognizer | undefined = sphinx.available ? await pocketsphinxEngine.load() : undefined;

/** Why this voice cannot be tested here, or false when it can. */
async function skipReason(engine: EngineDescriptor<Synthesizer>, voice: string): Promise<string | false> {
  if (!recognizer) return `PocketSphinx not installed: ${sphinx.reason}`;
  const availability = await engine.probe();
  if (!availability.available) return `${engine.id} not installed: ${availability.reason}`;
  const voices = await (await engine.load()).listVoices();
  return voices.some((info) => info.id === voice) ? false : `${voice} not installed`;
}

for (const { voice, engine } of VOICES) {
  const threshold = WER_THRESHOLDS[voice];
  test(`PocketSphinx understands ${voice} (mean WER under ${threshold})`, { skip: await skipReason(engine, voice) }, async () => {
    const synthesizer = await engine.load();
    const results: string[] = [];
    let total = 0;
    for (const text of SENTENCES) {
      const { pcm } = await synthesizer.synthesize({ text, voice }, context);
      const heard = (await recognizer!.recognize({ pcm, language: 'en' }, context)).text;
      const wer = wordErrorRate(text, heard);
      total += wer;
      results.push(`${wer.toFixed(2)} "${heard}"`);
    }
    const mean = total / SENTENCES.length;
    assert.ok(mean < threshold, `mean WER ${mean.toFixed(3)} ≥ ${threshold}:\n${results.join('\n')}`);
  });
}
