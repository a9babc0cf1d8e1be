import { Type } from 'typebox';
import { Value } from 'typebox/value';
import { formData } from '../../client/index.js';
import { ApiError, invalidField } from '../../platform/errors.js';
import { languageSchema } from '../../platform/http/schemas.js';
import { CLONE_METHODS } from '../cloning/index.js';
import { VoiceNameSchema } from '../voices/index.js';
import { inlineAudio, localAudio, type AudioLimits } from './audio-input.js';
import { defineTool, toolResult, type McpTool } from './tool.js';

const PATH_NOTE = 'Only over stdio (`timbre mcp`), where the server runs as your user; over HTTP send the bytes as audio_base64';
const InlineAudioFields = {
  audio_base64: Type.String({ minLength: 1, description: 'The audio file’s bytes in base64 (any format ffmpeg reads: wav, mp3, ogg, flac, m4a…)' }),
  filename: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'Its file name, e.g. memo.m4a' })),
  mime_type: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Its media type, e.g. audio/mpeg' })),
};

/** The fields of /api/transcribe's JSON answer the tool reports (the route answers more). */
const TranscriptSchema = Type.Object({
  text: Type.String(),
  language: Type.String(),
  duration: Type.Number(),
  recognizer: Type.String(),
  segments: Type.Array(Type.Object({ start: Type.Number(), end: Type.Number(), text: Type.String() })),
});

/** Exactly one of a path and inline audio, read into the file a route uploads. */
async function oneAudio(path: string | undefined, inline: { audio_base64?: string; filename?: string; mime_type?: string }, limits: AudioLimits) {
  const { audio_base64, ...about } = inline;
  const onlyOne = invalidField('path', 'or audio_base64 is required, and only one of them');
  if (audio_base64 !== undefined) {
    if (path !== undefined) throw onlyOne;
    return inlineAudio({ audio_base64, ...about }, 'audio_base64', limits);
  }
  if (path === undefined) throw onlyOne;
  return localAudio(path, 'path', limits);
}

export const transcribe = defineTool({
  name: 'transcribe',
  description:
    'Transcribe speech from an audio or video file with the best installed recognizer: returns the text, the language and timed segments. ' +
    'Give a file `path` (stdio only) or the bytes as `audio_base64`. Needs the scope audio:process.',
  input: Type.Object(
    {
      path: Type.Optional(Type.String({ minLength: 1, maxLength: 4096, description: `A file to transcribe. ${PATH_NOTE}` })),
      audio_base64: Type.Optional(InlineAudioFields.audio_base64),
      filename: InlineAudioFields.filename,
      mime_type: InlineAudioFields.mime_type,
      language: Type.Optional(languageSchema('BCP-47 code of the speech; detected when absent')),
    },
    { additionalProperties: false },
  ),
  run: async ({ path, language, ...inline }, { api, audio }) => {
    const file = await oneAudio(path, inline, audio);
    const body = { file, language, timestamps: 'segment', format: 'json' };
    const answer = await api.data(api.client.POST('/api/transcribe', { body, bodySerializer: formData }));
    if (!Value.Check(TranscriptSchema, answer)) throw new ApiError(502, 'unexpected_answer', 'POST /api/transcribe did not answer a JSON transcript', {});
    const { text, language: heard, duration, recognizer, segments } = answer;
    const structured = { text, language: heard, duration, recognizer, segments: segments.map(({ start, end, text }) => ({ start, end, text })) };
    return toolResult(text, structured);
  },
});

/** Every sample of a clone, from paths and inline audio, within TIMBRE_CLONE_MAX_SAMPLES. */
async function cloneSamples(paths: readonly string[], samples: readonly { audio_base64: string }[], limits: AudioLimits, maxSamples: number) {
  const count = paths.length + samples.length;
  if (count === 0) throw invalidField('paths', 'or samples must give at least one recording');
  if (count > maxSamples)
    throw new ApiError(400, 'too_many_samples', `${count} samples, more than TIMBRE_CLONE_MAX_SAMPLES (${maxSamples})`, { max: maxSamples });
  const fromPaths = await Promise.all(paths.map((path, index) => localAudio(path, `paths[${index}]`, limits)));
  return [...fromPaths, ...samples.map((sample, index) => inlineAudio(sample, `samples[${index}]`, limits))];
}

const similarityText = (value: number | null) => (value === null ? 'not measured' : value.toFixed(2));

export function cloneVoice(maxSamples: number): McpTool {
  return defineTool({
    name: 'clone_voice',
    description:
      'Create a voice that sounds like the speaker of a few recordings (seconds of clear speech each; several help). Returns the new voice id ' +
      'for speak, the method used, its similarity to the recordings measured by a check the fit never saw, against the nearest unconverted ' +
      'preset, and warnings about the samples or the result. Waits until the voice is made (tens of seconds). Needs the scope clone:create.',
    input: Type.Object(
      {
        name: VoiceNameSchema,
        paths: Type.Optional(
          Type.Array(Type.String({ minLength: 1, maxLength: 4096 }), { minItems: 1, maxItems: maxSamples, description: `Recordings. ${PATH_NOTE}` }),
        ),
        samples: Type.Optional(Type.Array(Type.Object(InlineAudioFields, { additionalProperties: false }), { minItems: 1, maxItems: maxSamples })),
        transcripts: Type.Optional(
          Type.Array(Type.String({ maxLength: 5000 }), { maxItems: maxSamples, description: 'The words of each recording, in order' }),
        ),
        language: Type.Optional(languageSchema('BCP-47 code of the language the voice will speak; en when absent')),
        description: Type.Optional(Type.String({ maxLength: 1000 })),
        gender: Type.Optional(Type.Union([Type.Literal('female'), Type.Literal('male')])),
        method: Type.Optional(Type.Enum(CLONE_METHODS, { description: 'Force a method; the best one available when absent' })),
      },
      { additionalProperties: false },
    ),
    run: async ({ paths = [], samples = [], ...fields }, { api, audio }) => {
      const files = await cloneSamples(paths, samples, audio, maxSamples);
      const answer = await api.data(api.client.POST('/api/clone/create-multi', { body: { ...fields, files }, bodySerializer: formData }));
      // Without `async` the route waits for the clone and answers 201 with it; 202 (a job still running) is never asked for.
      if (!('voice' in answer))
        throw new ApiError(502, 'unexpected_answer', `POST /api/clone/create-multi answered job ${answer.job_id} instead of the voice`, {});
      const { voice, ...made } = answer;
      const warnings = made.warnings.map((warning) => `${warning.code}: ${warning.message}`);
      const text = [
        `Created voice ${made.voice_id} (${voice.name}) by ${made.clone_method}: ${made.method_reason}.`,
        `Similarity to the recordings ${similarityText(made.similarity)} by ${made.similarity_measure} (nearest preset unconverted: ${similarityText(made.baseline_similarity)}).`,
        warnings.length === 0 ? 'No warnings.' : `Warnings: ${warnings.join('; ')}`,
      ].join('\n');
      return toolResult(text, { ...made, name: voice.name });
    },
  });
}
