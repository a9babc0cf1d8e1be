import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { contentTypeOf } from '../../platform/audio/encode.js';
import { GENERATION_FORMATS } from '../../platform/speech/speech.js';
import type { TimelineRenderer } from './render.js';
import { callerOf } from '../access/index.js';
import { RENDER_ID_HEADER } from '../tasks/index.js';
import { AUDIO_MEDIA_TYPES, binaryResponse, HEADERS, JOB_ERRORS, withErrors } from '../../platform/http/responses.js';

const MergeTimelineBody = Type.Object(
  {
    task_id: Type.String({ minLength: 1 }),
    format: Type.Optional(
      Type.Unsafe<(typeof GENERATION_FORMATS)[number]>({
        type: 'string',
        enum: [...GENERATION_FORMATS],
        default: 'wav',
        description: 'Audio format when `video` is false',
      }),
    ),
    video: Type.Optional(Type.Boolean({ default: false, description: 'An mp4 with the timeline’s picture and the mix' })),
    async: Type.Optional(Type.Boolean({ description: 'Answer 202 with the job; follow it on /ws' })),
  },
  { additionalProperties: false },
);

export const mergeTimelineRoutes: FastifyPluginAsyncTypebox<{ renderer: TimelineRenderer }> = async (app, { renderer }) => {
  app.post('/api/generate/merge-timeline', {
    config: { scope: 'tts:timeline' },
    schema: {
      operationId: 'renderTimeline',
      tags: ['Timeline'],
      summary: 'Render the timeline into one audio file, or an mp4 with its picture',
      description:
        'Mixes every unmuted block at its position with its trims, gain and fades. The result is a render of its own (GET /api/tasks/{task_id}/renders), replacing only the earlier timeline render of the same format; the task’s audio stays its latest merge.',
      body: MergeTimelineBody,
      response: withErrors(
        {
          200: binaryResponse(
            'The mix in the requested format, or an mp4 with the picture',
            [...AUDIO_MEDIA_TYPES, 'video/mp4'],
            HEADERS.taskId,
            HEADERS.audioDuration,
            RENDER_ID_HEADER,
          ),
          202: Type.Object(
            { job_id: Type.String(), task_id: Type.String(), status: Type.String() },
            { description: 'The render is queued; the job’s result names it (`render_id`, `audio_url`)' },
          ),
        },
        JOB_ERRORS,
        { 404: ['task_not_found', 'timeline_not_found'], 409: ['timeline_empty', 'timeline_not_ready', 'no_picture'] },
      ),
    },
    handler: async (request, reply) => {
      const { task_id: taskId, format, video, async: early } = request.body;
      const merged = await renderer.merge(taskId, callerOf(request).keyId, { format: format ?? 'wav', video: video ?? false, wait: !early });
      if ('job' in merged) return reply.code(202).send({ job_id: merged.job.id, task_id: taskId, status: merged.job.state });
      return reply
        .header('x-task-id', taskId)
        .header('x-render-id', merged.render.id)
        .header('x-audio-duration', String(merged.render.duration ?? 0))
        .type(contentTypeOf(merged.render.format, merged.render.sampleRate))
        .send(merged.file);
    },
  });
};
