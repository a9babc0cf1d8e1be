import type { ChunkRecord } from './chunk-repository.js';
import { chunkUrl } from './jobs.js';
import { selected } from './chunk-repository.js';

/** A chunk as clients see it: the selected take's text and state, and every take. */
export function presentChunk(chunk: ChunkRecord) {
  const take = selected(chunk);
  return {
    index: chunk.index,
    segment: chunk.segment,
    start: chunk.start,
    end: chunk.end,
    paragraph_end: chunk.paragraphEnd,
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
