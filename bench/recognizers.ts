import { readFile } from 'node:fs/promises';
import { durationOf, type Pcm } from '../src/platform/audio/pcm.js';
import { parseWav } from '../src/platform/audio/wav.js';
import type { EngineDescriptor, Recognizer, Synthesizer } from '../src/platform/engines/types.js';
import { wordErrorRate } from '../src/platform/text/wer.js';
import { round, timed } from './measure.js';
import { job } from './synthesizers.js';
import { JFK_TRANSCRIPT, WER_SENTENCES } from './texts.js';

/** The voices whose sentences make the fixed recognition set. */
const SET_VOICES = ['pico:en-US', 'espeak:mb-us2', 'festival:cmu_us_slt_arctic_hts', 'flite:slt'];

export interface Sample {
  source: string;
  reference: string;
  pcm: Pcm;
}

/** The fixed set: five sentences in each built-in voice, plus the JFK recording. */
export async function recognitionSet(synthesizers: EngineDescriptor<Synthesizer>[], jfkPath: string): Promise<Sample[]> {
  const samples: Sample[] = [];
  for (const descriptor of synthesizers) {
    const synthesizer = await descriptor.load();
    const voices = new Set((await synthesizer.listVoices()).map((voice) => voice.id));
    for (const voice of SET_VOICES.filter((id) => voices.has(id))) {
      for (const text of WER_SENTENCES) samples.push({ source: voice, reference: text, pcm: (await synthesizer.synthesize({ text, voice }, job())).pcm });
    }
  }
  samples.push({ source: 'jfk.wav', reference: JFK_TRANSCRIPT, pcm: parseWav(await readFile(jfkPath)) });
  return samples;
}

export async function benchRecognizer(descriptor: EngineDescriptor<Recognizer>, samples: Sample[]) {
  const recognizer = await descriptor.load();
  const bySource = new Map<string, { errors: number; seconds: number; audio: number; count: number }>();
  for (const sample of samples) {
    const { value, seconds } = await timed(() => recognizer.recognize({ pcm: sample.pcm, language: 'en' }, job()));
    const entry = bySource.get(sample.source) ?? { errors: 0, seconds: 0, audio: 0, count: 0 };
    entry.errors += wordErrorRate(sample.reference, value.text);
    entry.seconds += seconds;
    entry.audio += durationOf(sample.pcm);
    entry.count++;
    bySource.set(sample.source, entry);
  }
  await recognizer.dispose?.();
  return [...bySource].map(([source, entry]) => ({
    recognizer: descriptor.id,
    audio_from: source,
    clips: entry.count,
    mean_wer: round(entry.errors / entry.count),
    rtf: round(entry.seconds / entry.audio),
  }));
}
