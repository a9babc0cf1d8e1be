/**
 * Starting a generation on the route of the voice's type, in one of two ways:
 * - streamed (MP3 only): the answer's body is fed to a MediaSource as it arrives, so the audio
 *   element plays the first sentence while later ones are still being synthesized;
 * - as a task (`async`): the service answers the task id at once, the job is followed on /ws and
 *   the stored file plays when it is complete. This works for every format the browser decodes.
 */
import { api, type Schemas } from '../../api.js';
import { generationErrorText } from './generation-error.js';
import type { operations } from '../../../../src/client/schema.js';

export type GenerateBody = operations['generatePreset']['requestBody']['content']['application/json'];
export type VoiceType = Schemas['Voice']['type'];
export type AudioFormat = NonNullable<GenerateBody['format']>;

const STREAM_TYPE = 'audio/mpeg';

/** Whether this browser can play an MP3 stream as it arrives (Media Source Extensions). */
export const canStream = () => typeof MediaSource !== 'undefined' && MediaSource.isTypeSupported(STREAM_TYPE);

/** Each voice type speaks through its own route; the bodies are the same. */
const ROUTE = { preset: '/api/generate/preset', clone: '/api/generate/clone', design: '/api/generate/design' } as const;

/** Starts an async generation and answers its task id. */
export async function startTask(type: VoiceType, body: GenerateBody): Promise<string> {
  const request = { body: { ...body, async: true } };
  const { data, error, response } = await api.POST(ROUTE[type], request);
  if (error !== undefined || !response.ok) throw new Error(generationErrorText(error));
  if (typeof data !== 'object' || data === null || !('task_id' in data)) throw new Error('The service did not answer with a task');
  return data.task_id;
}

/** Asks for a streamed generation; answers the task id and the audio body as it comes. */
async function openStream(type: VoiceType, body: GenerateBody, signal: AbortSignal): Promise<{ taskId: string; audio: ReadableStream<Uint8Array> }> {
  const request = { body: { ...body, format: 'mp3' as const, stream: true }, parseAs: 'stream' as const, signal };
  const { data, error, response } = await api.POST(ROUTE[type], request);
  if (error !== undefined || !response.ok) throw new Error(generationErrorText(error));
  const taskId = response.headers.get('x-task-id');
  if (!data || !taskId) throw new Error('The service sent no audio stream');
  return { taskId, audio: data };
}

function nextEvent(target: EventTarget, name: string): Promise<void> {
  return new Promise((resolve) => target.addEventListener(name, () => resolve(), { once: true }));
}

async function append(buffer: SourceBuffer, bytes: Uint8Array): Promise<void> {
  const appended = nextEvent(buffer, 'updateend');
  // A copy: appendBuffer takes only bytes backed by a plain ArrayBuffer, which a fetch chunk may not promise.
  buffer.appendBuffer(new Uint8Array(bytes));
  await appended;
}

/** The person's click allowed playback; a browser that still refuses leaves the play button to them. */
function startPlaying(audio: HTMLAudioElement): void {
  void audio.play().catch(() => undefined);
}

interface StreamCallbacks {
  /** The task id, as soon as the answer starts (so it can be cancelled and listed). */
  onTask: (taskId: string) => void;
  /** The object URL given to the audio element, for the caller to revoke when it is replaced. */
  onSource: (url: string) => void;
}

/** Streams an MP3 generation into `audio`; resolves when the whole answer has arrived. */
export async function streamInto(
  audio: HTMLAudioElement,
  type: VoiceType,
  body: GenerateBody,
  signal: AbortSignal,
  { onTask, onSource }: StreamCallbacks,
): Promise<void> {
  const { taskId, audio: stream } = await openStream(type, body, signal);
  onTask(taskId);
  const source = new MediaSource();
  const url = URL.createObjectURL(source);
  onSource(url);
  audio.src = url;
  await nextEvent(source, 'sourceopen');
  const buffer = source.addSourceBuffer(STREAM_TYPE);
  const reader = stream.getReader();
  let started = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      await append(buffer, value);
      if (!started) {
        started = true;
        startPlaying(audio);
      }
    }
  } finally {
    // Whatever arrived stays playable, with its real length, even when the stream was cut short.
    if (source.readyState === 'open') source.endOfStream();
  }
}

export function playFile(audio: HTMLAudioElement, url: string): void {
  audio.src = url;
  startPlaying(audio);
}

/** Generates a short text whole and answers its audio (a preview: no stream, no task to follow). */
export async function generateAudio(type: VoiceType, body: GenerateBody): Promise<Blob> {
  const { data, error, response } = await api.POST(ROUTE[type], { body, parseAs: 'blob' });
  if (error !== undefined || !response.ok || !data) throw new Error(generationErrorText(error));
  return data;
}
