import { durationOf } from '../src/platform/audio/pcm.js';
import type { EngineDescriptor, JobContext, Synthesizer, VoiceInfo } from '../src/platform/engines/types.js';
import { peakMemoryMiB, round, timed } from './measure.js';
import { LONG_TEXT, SHORT_TEXT, sentencesOf } from './texts.js';

export const job = (): JobContext => ({ signal: new AbortController().signal, progress: () => undefined });

export interface SynthesizerFigures {
  engine: string;
  voice: string;
  rtf_short: number;
  rtf_long: number;
  first_audio_s: number;
  audio_long_s: number;
  peak_mib: number | null;
}

export async function englishVoice(synthesizer: Synthesizer): Promise<VoiceInfo | undefined> {
  const voices = await synthesizer.listVoices();
  return voices.find((voice) => voice.language.toLowerCase().startsWith('en-us')) ?? voices.find((voice) => voice.language.startsWith('en'));
}

async function realTimeFactor(synthesizer: Synthesizer, voice: string, text: string): Promise<{ rtf: number; audio: number }> {
  const { value, seconds } = await timed(() => synthesizer.synthesize({ text, voice }, job()));
  const audio = durationOf(value.pcm);
  return { rtf: seconds / audio, audio };
}

/**
 * Real-time factor (synthesis seconds / audio seconds) for a short and a 2,000-character text,
 * time to first audio (the first sentence, as long-form generation speaks sentence by sentence),
 * and the peak memory of the benchmark process (CLI engines run in processes of their own).
 */
export async function benchSynthesizer(descriptor: EngineDescriptor<Synthesizer>): Promise<SynthesizerFigures | undefined> {
  const synthesizer = await descriptor.load();
  const voice = await englishVoice(synthesizer);
  if (!voice) return undefined;
  await synthesizer.synthesize({ text: 'Warm up.', voice: voice.id }, job());
  const short = await realTimeFactor(synthesizer, voice.id, SHORT_TEXT);
  const firstSentence = await timed(() => synthesizer.synthesize({ text: sentencesOf(LONG_TEXT)[0]!, voice: voice.id }, job()));
  const long = await realTimeFactor(synthesizer, voice.id, LONG_TEXT);
  await synthesizer.dispose?.();
  return {
    engine: descriptor.id,
    voice: voice.id,
    rtf_short: round(short.rtf),
    rtf_long: round(long.rtf),
    first_audio_s: round(firstSentence.seconds),
    audio_long_s: round(long.audio, 1),
    peak_mib: await peakMemoryMiB(),
  };
}
