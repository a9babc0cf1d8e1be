import { PronunciationIdsField, TextTypeField } from '../../platform/speech/markup.js';
import { Type, type Static } from 'typebox';
import { AUDIO_MEDIA_TYPES, binaryResponse, HEADERS } from '../../platform/http/responses.js';

export const SPEECH_FORMATS = ['mp3', 'opus', 'aac', 'flac', 'wav', 'pcm'] as const;
export type SpeechFormat = (typeof SPEECH_FORMATS)[number];

/** OpenAI's input limit; longer texts go to /api/long-form. */
export const MAX_INPUT_CHARS = 4096;

const VoiceIdSchema = Type.String({ minLength: 1, maxLength: 200 });

export const SpeechBodySchema = Type.Object(
  {
    model: Type.String({
      minLength: 1,
      maxLength: 100,
      description:
        '`tts-1`, `tts-1-hd` or `gpt-4o-mini-tts` (the best installed engine), or an engine: `kokoro`, `kitten`, `vits`, `rhvoice`, `pico`, `flite`, `festival`, `openjtalk`, `espeak`',
    }),
    input: Type.String({
      minLength: 1,
      maxLength: MAX_INPUT_CHARS,
      description:
        'The text to speak, at most 4096 characters. With an OpenAI voice name it is spoken in English unless it is confidently in another installed language (another script, or 20 letters and more the detector clearly places there)',
    }),
    voice: Type.Union(
      [
        Type.String({ ...VoiceIdSchema, description: 'An OpenAI voice name (alloy, ash, …, cedar) or any Timbre voice id (preset, clone, design)' }),
        Type.Object({ id: VoiceIdSchema }, { additionalProperties: false, description: 'The custom-voice form: a Timbre voice id' }),
      ],
      { description: 'GET /v1/audio/voices lists what each OpenAI name speaks with' },
    ),
    instructions: Type.Optional(
      Type.String({
        maxLength: MAX_INPUT_CHARS,
        description: 'Read with the voice-description vocabulary: pitch and pace change the speech; the rest is reported as ignored in X-Instructions',
      }),
    ),
    response_format: Type.Optional(
      Type.Unsafe<SpeechFormat>({
        type: 'string',
        enum: [...SPEECH_FORMATS],
        default: 'mp3',
        description: 'opus is Ogg Opus, aac is ADTS, pcm is raw signed 16-bit little-endian mono at 24 kHz',
      }),
    ),
    speed: Type.Optional(Type.Number({ minimum: 0.25, maximum: 4, default: 1 })),
    stream_format: Type.Optional(
      Type.Unsafe<'audio' | 'sse'>({
        type: 'string',
        enum: ['audio', 'sse'],
        default: 'audio',
        description: '`sse`: text/event-stream of speech.audio.delta events (base64 audio) and one speech.audio.done',
      }),
    ),
    project_id: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description:
          'Timbre’s extra field (OpenAI SDKs send it through `extra_body`): file the task into this project; the X-Timbre-Project-Id header does the same',
      }),
    ),
    text_type: TextTypeField,
    pronunciation_ids: PronunciationIdsField,
  },
  { additionalProperties: false },
);
export type SpeechBody = Static<typeof SpeechBodySchema>;

const INSTRUCTIONS_HEADER = {
  'X-Instructions': {
    type: 'string',
    description: 'Sent when instructions were given: `applied=pitch,pace; ignored=gender,cheerful` (ignored words percent-encoded)',
  },
} as const;

export const SPEECH_DESCRIPTION =
  'The audio, sent sentence by sentence as it is synthesized (chunked): mp3 (audio/mpeg), opus (audio/ogg), aac (audio/aac), flac (sent once complete: ' +
  'its header, written last, states its length), wav ' +
  '(with the streaming header of unknown size), or pcm (audio/pcm: raw signed 16-bit little-endian mono at 24 kHz); with ' +
  '`stream_format: sse`, text/event-stream events `{"type":"speech.audio.delta","audio":"<base64>"}` then ' +
  '`{"type":"speech.audio.done","usage":{"input_tokens","output_tokens","total_tokens"}}`.';

/** The audio in any format, or the event stream; the task it is stored as in X-Task-Id. */
export function speechResponse() {
  const audio = binaryResponse(SPEECH_DESCRIPTION, AUDIO_MEDIA_TYPES, HEADERS.taskId, INSTRUCTIONS_HEADER);
  return { ...audio, content: { ...audio.content, 'text/event-stream': { schema: { type: 'string' } } } };
}
