import { buffer } from 'node:stream/consumers';
import type { Readable } from 'node:stream';
import { Type, type Static } from 'typebox';
import type { TaskRecord } from '../tasks/index.js';

const WordSchema = Type.Object({
  text: Type.String(),
  start: Type.Number({ description: 'Seconds from the start of the audio' }),
  end: Type.Number(),
});

export const TimestampedSpeechSchema = Type.Object({
  task_id: Type.String(),
  audio_base64: Type.String({ description: 'The audio file in `format`, base64' }),
  format: Type.String(),
  sample_rate: Type.Union([Type.Integer(), Type.Null()]),
  duration: Type.Number(),
  words: Type.Array(WordSchema),
  word_source: Type.Union([Type.Literal('engine'), Type.Literal('estimate'), Type.Literal('mixed')], {
    description: '`engine`: every word time came from the engines; `estimate`: from the audio (engines that give none, docs/ssml.md); `mixed`: both',
  }),
});
type TimestampedSpeech = Static<typeof TimestampedSpeechSchema>;

/** What a finished generation's task stores of its times (speak-to-file.ts). */
interface StoredTimings {
  words?: { word: string; start: number; end: number }[] | null;
  word_source?: TimestampedSpeech['word_source'];
}

function storedTimings(timings: unknown): StoredTimings {
  return typeof timings === 'object' && timings !== null ? timings : {};
}

/** A finished generation as JSON: its audio in base64 and the times of its words. */
export async function timestampedSpeech(done: { task: TaskRecord; audio: Readable }): Promise<TimestampedSpeech> {
  const timings = storedTimings(done.task.timings);
  return {
    task_id: done.task.id,
    audio_base64: (await buffer(done.audio)).toString('base64'),
    format: done.task.format ?? 'wav',
    sample_rate: done.task.sampleRate,
    duration: done.task.duration ?? 0,
    words: (timings.words ?? []).map(({ word, start, end }) => ({ text: word, start, end })),
    word_source: timings.word_source ?? 'engine',
  };
}
