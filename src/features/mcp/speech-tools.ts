import { Type } from 'typebox';
import type { components } from '../../client/index.js';
import { ApiError } from '../../platform/errors.js';
import { languageSchema } from '../../platform/http/schemas.js';
import { GENERATION_FORMATS } from '../../platform/speech/speech.js';
import { defineTool, toolResult } from './tool.js';
import type { TimbreApi } from './rest.js';

type Voice = components['schemas']['Voice'];

/** What an agent needs of a voice to choose it; the whole voice is the resource timbre://voices/{voice_id}. */
export function voiceSummary(voice: Voice) {
  return {
    id: voice.id,
    name: voice.name,
    type: voice.type,
    engine: voice.engine,
    language: voice.language,
    languages: voice.languages,
    gender: voice.gender,
    tags: voice.library_tags,
    available: voice.available,
    license: voice.license,
  };
}

export const listVoices = defineTool({
  name: 'list_voices',
  description:
    'List the voices Timbre can speak with (installed presets, the caller’s clones and designs), clearest first. Filter by type, language, ' +
    'favorite, category or search text. Each voice’s `id` is what speak takes as voice_id. Needs the scope voices:read.',
  input: Type.Object(
    {
      type: Type.Optional(Type.Union([Type.Literal('preset'), Type.Literal('clone'), Type.Literal('design')], { description: 'Only voices of this kind' })),
      language: Type.Optional(languageSchema('BCP-47 code; en matches en, en-US, en-GB…')),
      search: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 200,
          description: 'Words searched in names, descriptions, tags (female, male, deep, bright, clear, neural…), languages and categories',
        }),
      ),
      favorite: Type.Optional(Type.Boolean({ description: 'Only favorites (true) or only the others (false)' })),
      category: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'A category id or name' })),
      sort: Type.Optional(Type.Union([Type.Literal('quality'), Type.Literal('name')], { description: 'quality (clearest first, the default) or name' })),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 20, description: 'How many voices (default 20)' })),
      offset: Type.Optional(Type.Integer({ minimum: 0, description: 'How many to skip, for the next page' })),
    },
    { additionalProperties: false },
  ),
  run: async ({ search, limit = 20, ...filters }, { api }) => {
    const page = await api.data(api.client.GET('/api/voices', { params: { query: { ...filters, q: search, limit } } }));
    const voices = page.voices.map(voiceSummary);
    const lines = voices.map((voice) => `- ${voice.id}: ${voice.name} (${voice.language}, ${voice.gender ?? 'unknown gender'}, ${voice.engine})`);
    const shown = voices.length === 0 ? 'none shown' : `${page.offset + 1} to ${page.offset + voices.length} shown`;
    return toolResult([`${page.total} voices, ${shown}:`, ...lines].join('\n'), { ...page, voices });
  },
});

/** The voice to speak with: the one named, else the clearest available preset of the language (GET /api/voices sorts by quality). */
async function chosenVoice(api: TimbreApi, voiceId: string | undefined, language: string | undefined): Promise<Voice> {
  if (voiceId !== undefined) return api.data(api.client.GET('/api/voices/{id}', { params: { path: { id: voiceId } } }));
  const wanted = language ?? 'en';
  const { voices } = await api.data(api.client.GET('/api/voices', { params: { query: { type: 'preset', language: wanted, sort: 'quality', limit: 50 } } }));
  const voice = voices.find((candidate) => candidate.available);
  if (voice) return voice;
  throw new ApiError(404, 'voice_not_found', `No installed voice speaks ${wanted}: name a voice_id from list_voices`, { language: wanted });
}

const GENERATE_ROUTES = { preset: '/api/generate/preset', clone: '/api/generate/clone', design: '/api/generate/design' } as const;

export const speak = defineTool({
  name: 'speak',
  description:
    'Speak a text with a Timbre voice and return the audio (MCP audio content), the task id and a link to download it. The text may be SSML ' +
    '(a <speak> document). Without voice_id the clearest installed voice of `language` (default en) speaks. Needs the scopes voices:read and tts:generate.',
  input: Type.Object(
    {
      text: Type.String({
        minLength: 1,
        description: 'What to say: plain text, or SSML when its root element is <speak>; at most TIMBRE_MAX_TEXT_CHARS (5000)',
      }),
      voice_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'A voice id from list_voices' })),
      language: Type.Optional(languageSchema('BCP-47 code of the text; the voice must speak it. Without voice_id it picks the voice (default en)')),
      format: Type.Optional(Type.Enum(GENERATION_FORMATS, { default: 'wav', description: 'Audio format (default wav); pcm is raw 16-bit mono' })),
      speed: Type.Optional(Type.Number({ minimum: 0.25, maximum: 4, description: '1 is the voice’s normal rate' })),
    },
    { additionalProperties: false },
  ),
  run: async ({ text, voice_id, language, format = 'wav', speed }, { api }) => {
    const voice = await chosenVoice(api, voice_id, language);
    const body = { voice_id: voice.id, text, language, format, speed };
    const { data, response } = await api.answer(api.client.POST(GENERATE_ROUTES[voice.type], { body, parseAs: 'arrayBuffer' }));
    const taskId = response.headers.get('x-task-id') ?? '';
    const duration = Number(response.headers.get('x-audio-duration') ?? 0);
    const mimeType = response.headers.get('content-type') ?? 'audio/wav';
    const audioUrl = api.link(`/api/tasks/${taskId}/audio`);
    const summary = `Spoke ${duration.toFixed(2)} s of ${format} with ${voice.id} (${voice.name}): task ${taskId}, download ${audioUrl}`;
    return toolResult(summary, { task_id: taskId, voice_id: voice.id, duration, format, mime_type: mimeType, audio_url: audioUrl }, [
      { type: 'audio', data: Buffer.from(data).toString('base64'), mimeType },
      { type: 'resource_link', uri: audioUrl, name: `${taskId}.${format}`, mimeType, description: 'The audio, downloaded with the same API key' },
    ]);
  },
});

export const getTask = defineTool({
  name: 'get_task',
  description:
    'Read a task the caller started (a speech generation, a long-form run): its status, voice, text, duration, error and audio link. Needs tts:generate.',
  input: Type.Object({ task_id: Type.String({ minLength: 1, maxLength: 64, description: 'The task id speak returned' }) }, { additionalProperties: false }),
  run: async ({ task_id }, { api }) => {
    const task = await api.data(api.client.GET('/api/tasks/{task_id}', { params: { path: { task_id } } }));
    const audio = task.audio_url === null ? '' : `, audio at ${api.link(task.audio_url)}`;
    const failure = task.error === null ? '' : `, failed: ${task.error.code}: ${task.error.message}`;
    const duration = task.duration === null ? '' : ` (${task.duration.toFixed(2)} s)`;
    return toolResult(`Task ${task.task_id}: ${task.status}${duration}${failure}${audio}`, task);
  },
});
