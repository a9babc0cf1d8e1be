// A tour of Timbre's typed client: every call below is checked by the compiler against the API
// document, with no casts. Run it against a running service:
//   TIMBRE_API_KEY=tmb_… node --import tsx examples/client-tour.ts
import { createTimbreClient, formData } from 'timbre/client';

const apiKey = process.env.TIMBRE_API_KEY;
if (!apiKey) throw new Error('Set TIMBRE_API_KEY to a tmb_ key with every scope');
const timbre = createTimbreClient({ baseUrl: process.env.TIMBRE_URL, apiKey });

/** The body of a successful answer, or the service's error envelope as an exception. */
function expectData<T>(result: { data?: T; error?: unknown; response: Response }, what: string): T {
  if (result.data === undefined) throw new Error(`${what}: ${result.response.status} ${JSON.stringify(result.error)}`);
  return result.data;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Voices: the first installed English preset.
const { voices } = expectData(await timbre.GET('/api/voices', { params: { query: { type: 'preset', language: 'en' } } }), 'list voices');
const voice = voices.find((candidate) => candidate.available);
if (!voice) throw new Error('No English preset voice is installed');

// Speech, straight into an ArrayBuffer.
const text = 'Good morning. The quick brown fox jumps over the lazy dog.';
const speech = await timbre.POST('/api/generate/preset', {
  body: { voice_id: voice.id, text, language: 'en-US' },
  parseAs: 'arrayBuffer',
});
const audio = expectData(speech, 'generate speech');
const duration = Number(speech.response.headers.get('X-Audio-Duration'));

// A chunked task: one chunk per sentence, generated in the background.
const started = expectData(
  await timbre.POST('/api/generate/clone-chunked', { body: { voice_id: voice.id, text: `${text} It was a bright cold day in April.`, language: 'en-US' } }),
  'start chunked task',
);
const taskId = started.task_id;
for (let status = started.status; status !== 'completed';) {
  if (status === 'failed' || status === 'cancelled') throw new Error(`Task ${taskId} ${status}`);
  await sleep(200);
  status = expectData(await timbre.GET('/api/tasks/{task_id}', { params: { path: { task_id: taskId } } }), 'read task').status;
}
const chunk = expectData(
  await timbre.GET('/api/audio/chunk/{task_id}/{index}', { params: { path: { task_id: taskId, index: 0 } }, parseAs: 'arrayBuffer' }),
  'fetch chunk audio',
);

// Transcription of an uploaded asset: the speech made above.
const asset = expectData(
  await timbre.POST('/api/assets', { body: { file: new Blob([audio], { type: 'audio/wav' }) }, bodySerializer: formData }),
  'upload asset',
);
const transcript = expectData(await timbre.POST('/api/transcribe', { body: { asset_id: asset.asset_id } }), 'transcribe');
if (typeof transcript === 'string') throw new Error('Asked for JSON, got text');

// The timeline: read it, move every block half a second later, and save what was read.
const timeline = expectData(await timbre.GET('/api/timeline/{task_id}', { params: { path: { task_id: taskId } } }), 'read timeline');
const saved = expectData(
  await timbre.POST('/api/timeline/{task_id}/layout', {
    params: { path: { task_id: taskId } },
    body: { ...timeline, blocks: timeline.blocks.map((block) => ({ ...block, start: block.start + 0.5 })) },
  }),
  'save layout',
);

process.stdout.write(
  `${JSON.stringify({
    voice: voice.id,
    speech_bytes: audio.byteLength,
    speech_duration: duration,
    task_id: taskId,
    chunk_bytes: chunk.byteLength,
    asset_id: asset.asset_id,
    transcript: transcript.text,
    blocks_before: timeline.blocks.map((block) => block.start),
    blocks_after: saved.blocks.map((block) => block.start),
    version: saved.version,
  })}\n`,
);
