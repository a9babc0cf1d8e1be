import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { callerOf } from '../access/index.js';
import { PROJECT_HEADER, type FileInto } from '../projects/index.js';
import { JOB_ERRORS, withErrors } from '../../platform/http/responses.js';
import { connectionSignal } from '../../platform/http/connection-signal.js';
import { streamingBody } from '../../platform/http/streaming.js';
import { openAiResponses } from './errors.js';
import type { OpenAiService } from './service.js';
import { SPEECH_DESCRIPTION, SpeechBodySchema, speechResponse } from './speech-schemas.js';

const sseEvent = (event: object) => Buffer.from(`data: ${JSON.stringify(event)}\n\n`);

/**
 * OpenAI's speech events over the same audio the plain answer sends: one `speech.audio.delta` per
 * chunk, then `speech.audio.done`. Timbre has no tokens; usage counts the input's characters as its
 * input tokens and no output tokens.
 */
export async function* speechEvents(audio: AsyncIterable<Buffer>, input: string): AsyncGenerator<Buffer> {
  for await (const chunk of audio) yield sseEvent({ type: 'speech.audio.delta', audio: chunk.toString('base64') });
  const characters = [...input].length;
  yield sseEvent({ type: 'speech.audio.done', usage: { input_tokens: characters, output_tokens: 0, total_tokens: characters } });
}

export const speechRoutes: FastifyPluginAsyncTypebox<{ openai: OpenAiService; fileInto: FileInto }> = async (app, { openai, fileInto }) => {
  app.post('/v1/audio/speech', {
    config: { scope: 'tts:generate' },
    schema: {
      operationId: 'openAiCreateSpeech',
      tags: ['Text to speech'],
      summary: 'OpenAI-compatible text to speech (audio.speech.create)',
      description: SPEECH_DESCRIPTION,
      body: SpeechBodySchema,
      headers: Type.Object({ [PROJECT_HEADER]: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'File the task into this project' })) }),
      response: openAiResponses(
        withErrors({ 200: speechResponse() }, JOB_ERRORS, {
          400: ['text_empty', 'invalid_ssml', 'too_many_dictionaries'],
          404: ['model_not_found', 'voice_not_found', 'project_not_found', 'pronunciation_not_found'],
          413: ['text_too_long', 'payload_too_large'],
          415: ['unsupported_media_type'],
          422: ['reference_audio_required', 'reference_text_required', 'invalid_style', 'audio_too_long', 'language_not_supported'],
          503: ['voice_unavailable'],
        }),
      ),
    },
    handler: async (request, reply) => {
      const keyId = callerOf(request).keyId;
      const projectId = fileInto(request.body.project_id ?? request.headers[PROJECT_HEADER], keyId);
      const plan = await openai.planSpeech(request.body);
      plan.input.projectId = projectId;
      plan.input.textType = request.body.text_type;
      plan.input.pronunciationIds = request.body.pronunciation_ids;
      const spoken = await openai.speak(plan, keyId, connectionSignal(reply));
      const sse = request.body.stream_format === 'sse';
      // Waits for the first chunk: a failure before any audio is still an error answer with its status.
      const body = await streamingBody(sse ? speechEvents(spoken.audio, request.body.input) : spoken.audio);
      reply.header('x-task-id', spoken.taskId);
      if (plan.instructions !== undefined) reply.header('x-instructions', plan.instructions);
      if (sse) reply.header('cache-control', 'no-cache');
      return reply.type(sse ? 'text/event-stream' : spoken.contentType()).send(body);
    },
  });
};
