import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';
import { ApiError } from '../../platform/errors.js';
import type { TaskRecord } from './repository.js';

/** Where word times came from: the engines, the estimate from the audio (engines that give none), or both. */
export type WordSource = 'engine' | 'estimate' | 'mixed';

const StoredWordSchema = Type.Object({ word: Type.String(), start: Type.Number(), end: Type.Number(), chunk: Type.Optional(Type.Integer()) });

/**
 * Word times as tasks, renders and chunk takes store them (other fields, phonemes and sentences,
 * beside them). Tasks spoken before estimates existed have no `word_source`: their words came
 * from the engine.
 */
const StoredWordTimingsSchema = Type.Object({
  words: Type.Array(StoredWordSchema),
  word_source: Type.Optional(Type.Union([Type.Literal('engine'), Type.Literal('estimate'), Type.Literal('mixed')])),
});

export type StoredWordTimings = Static<typeof StoredWordTimingsSchema>;

/** A task's, render's or take's stored timings with their words; undefined when they hold none. */
export function readWordTimings(timings: unknown): StoredWordTimings | undefined {
  return Value.Check(StoredWordTimingsSchema, timings) ? timings : undefined;
}

/** The source of words joined from several parts: theirs when they agree, else `mixed`. */
export function joinedSource(sources: readonly WordSource[]): WordSource {
  const first = sources[0] ?? 'engine';
  return sources.every((source) => source === first) ? first : 'mixed';
}

/** The schema of `GET /api/tasks/{task_id}/words`. */
export const TaskWordsSchema = Type.Object(
  {
    words: Type.Array(
      Type.Object({
        text: Type.String(),
        start: Type.Number({ description: 'seconds' }),
        end: Type.Number({ description: 'seconds' }),
        chunk: Type.Integer({ minimum: 0, description: 'The long-form chunk the word is in; 0 for a generation' }),
      }),
    ),
    source: Type.Union([Type.Literal('engine'), Type.Literal('estimate'), Type.Literal('mixed')], {
      description: '`engine`: the engines gave the times; `estimate`: estimated from the audio’s loudness and the text; `mixed`: both',
    }),
    relative_to: Type.Union([Type.Literal('task'), Type.Literal('chunk')], {
      description:
        '`task`: seconds of the task’s audio (a generation, or a long-form task’s last merge); `chunk`: seconds of each chunk’s own audio (a long-form task not merged yet)',
    }),
  },
  { $id: 'TaskWords' },
);

export type TaskWords = Static<typeof TaskWordsSchema>;

/** The stored timings of each chunk's selected take of a long-form task, in chunk order. */
export type ChunkTimings = (task: TaskRecord) => { chunk: number; timings: unknown }[];

/**
 * A task's words: those stored on the task (a generation, a merged long-form task) in seconds of
 * its audio; else, for a task of chunks, each chunk's words in seconds of the chunk's own audio.
 * A task without them (made before timings were kept, or not finished) answers 409.
 */
export function wordsOfTask(task: TaskRecord, chunkTimings?: ChunkTimings): TaskWords {
  const stored = readWordTimings(task.timings);
  if (stored) {
    return {
      words: stored.words.map(({ word, start, end, chunk }) => ({ text: word, start, end, chunk: chunk ?? 0 })),
      source: stored.word_source ?? 'engine',
      relative_to: 'task',
    };
  }
  const chunks = (chunkTimings?.(task) ?? []).map(({ chunk, timings }) => ({ chunk, stored: readWordTimings(timings) }));
  if (chunks.length > 0 && chunks.every((part) => part.stored)) {
    return {
      words: chunks.flatMap(({ chunk, stored }) => (stored?.words ?? []).map(({ word, start, end }) => ({ text: word, start, end, chunk }))),
      source: joinedSource(chunks.map((part) => part.stored?.word_source ?? 'engine')),
      relative_to: 'chunk',
    };
  }
  throw new ApiError(409, 'timings_unavailable', `Task ${task.id} has no word times (it is not finished, or was spoken before word times were kept)`, {
    task_id: task.id,
  });
}
