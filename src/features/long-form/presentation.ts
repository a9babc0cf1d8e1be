import { Type } from 'typebox';
import { ErrorObjectSchema, Nullable } from '../../platform/http/schemas.js';
import type { ChunkRecord } from './chunk-repository.js';
import { chunkUrl } from './jobs.js';
import { selected } from './chunk-repository.js';

const TakeStateSchema = Type.Unsafe<'pending' | 'running' | 'completed' | 'failed' | 'cancelled'>({
  type: 'string',
  enum: ['pending', 'running', 'completed', 'failed', 'cancelled'],
});

/** The schema of `presentChunk`. */
export const ChunkSchema = Type.Object(
  {
    index: Type.Integer({ minimum: 0 }),
    segment: Type.Integer({ minimum: 0, description: 'Which request segment (voice or language part) the chunk came from' }),
    start: Type.Integer({ minimum: 0, description: 'Character offset of the chunk in its segment’s text' }),
    end: Type.Integer({ minimum: 0 }),
    paragraph_end: Type.Boolean(),
    speaker: Nullable(Type.String({ description: 'Who speaks the chunk: the script’s or segment’s speaker name, else the name of its voice' })),
    text: Type.String({ description: 'The selected take’s text' }),
    voice_id: Type.String(),
    language: Type.String(),
    route: Type.String({ description: '`voice` (its own voice) or `preset:<id>` (a stand-in for the language)' }),
    state: TakeStateSchema,
    duration: Nullable(Type.Number({ description: 'seconds' })),
    error: Nullable(ErrorObjectSchema),
    selected_take: Type.Integer({ minimum: 1 }),
    audio_url: Nullable(Type.String()),
    takes: Type.Array(
      Type.Object({
        take: Type.Integer({ minimum: 1 }),
        text: Type.String(),
        voice_id: Type.String(),
        state: TakeStateSchema,
        duration: Nullable(Type.Number()),
        created_at: Type.String({ format: 'date-time' }),
      }),
    ),
  },
  { $id: 'Chunk' },
);

/** A chunk as clients see it: the selected take's text and state, and every take. */
export function presentChunk(chunk: ChunkRecord) {
  const take = selected(chunk);
  return {
    index: chunk.index,
    segment: chunk.segment,
    start: chunk.start,
    end: chunk.end,
    paragraph_end: chunk.paragraphEnd,
    speaker: chunk.speaker,
    text: take.text,
    voice_id: take.voiceId,
    language: take.language,
    route: take.route,
    state: take.state,
    duration: take.duration,
    error: take.error,
    selected_take: chunk.selectedTake,
    audio_url: take.state === 'completed' ? chunkUrl(chunk.taskId, chunk.index) : null,
    takes: chunk.takes.map((candidate) => ({
      take: candidate.take,
      text: candidate.text,
      voice_id: candidate.voiceId,
      state: candidate.state,
      duration: candidate.duration,
      created_at: candidate.createdAt,
    })),
  };
}
