import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { GenerationService } from '../../../../src/features/generation/index.js';
import { readFile } from 'node:fs/promises';
import { parseWav } from '../../../../src/platform/audio/wav.js';
import { completedJob } from '../../../../src/platform/jobs/job-errors.js';
import { ApiError } from '../../../../src/platform/errors.js';
import type { SpeakingVoice } from '../../../../src/platform/speech/speech.js';
import { FakeEngines, PICO_EN_US } from '../../../helpers/fake-engines.js';
import { serviceFixture, type ServiceFixture } from '../../../helpers/service-fixture.js';

const preset = (id: string, changes: Partial<SpeakingVoice> = {}): SpeakingVoice => ({ ...PICO_EN_US, id, ...changes });

const VOICES = new Map([
  ['pico:en-US', preset('pico:en-US')],
  ['pico:gone', preset('pico:gone', { available: false })],
  ['voice_clone1', preset('voice_clone1', { type: 'clone' })],
]);

function refusedWith(status: number, code: string) {
  return (error: unknown) => error instanceof ApiError && error.statusCode === status && error.code === code;
}

describe('the generation service', () => {
  let fixture: ServiceFixture;
  let engines: FakeEngines;
  let generation: GenerationService;

  before(async () => {
    fixture = await serviceFixture();
    engines = new FakeEngines(0.5);
    const findVoice = async (id: string) => {
      const voice = VOICES.get(id);
      if (!voice) throw new ApiError(404, 'voice_not_found', `No voice ${id}`);
      return voice;
    };
    generation = new GenerationService({ ...fixture, engines, findVoice, maxTextChars: 200 });
  });

  after(() => fixture.close());

  test('a request becomes a task whose job speaks the normalised text, stores the audio and answers it', async () => {
    const done = await generation.speak('preset', { voiceId: 'pico:en-US', text: 'Room  42 is ready.', language: 'en-US', speed: 1.5 }, 'key_a');
    const audio = Buffer.concat(await done.audio.toArray());
    assert.deepEqual(audio, await readFile(fixture.audio.absolute(done.task.audioPath!)));
    assert.equal(done.size, audio.length);
    assert.equal(done.contentType, 'audio/wav');
    assert.equal(done.task.status, 'completed');
    assert.ok(Math.abs((done.task.duration ?? 0) - 0.5) < 0.01, `duration ${done.task.duration}`);
    assert.equal(parseWav(audio).samples.length, 8000);
    const [request] = engines.synthesized;
    assert.equal(request?.text, 'Room forty-two is ready.');
    assert.deepEqual([request?.voice, request?.language, request?.speed], ['en-US', 'en-US', 1.5]);
  });

  test('what cannot be spoken is refused before anything is queued', async () => {
    const submit = (voiceId: string, text: string, language = 'en-US') => generation.submit('preset', { voiceId, text, language }, 'key_a');
    await assert.rejects(submit('pico:en-US', 'x'.repeat(201)), refusedWith(413, 'text_too_long'));
    await assert.rejects(submit('voice_clone1', 'Hello.'), refusedWith(400, 'voice_type_mismatch'));
    await assert.rejects(submit('pico:en-US', 'Bonjour.', 'fr-FR'), refusedWith(422, 'language_not_supported'));
    await assert.rejects(submit('pico:gone', 'Hello.'), refusedWith(503, 'voice_unavailable'));
    await assert.rejects(submit('pico:missing', 'Hello.'), refusedWith(404, 'voice_not_found'));
    assert.equal(fixture.queue.status().queued.length, 0);
  });

  test("another key's task cannot be cancelled: it does not exist for that key", async () => {
    const { task, job } = await generation.submit('preset', { voiceId: 'pico:en-US', text: 'Mine.', language: 'en-US' }, 'key_a');
    await assert.rejects(generation.cancel(task.id, 'key_b'), refusedWith(404, 'task_not_found'));
    await completedJob(fixture.queue, job.id);
    await assert.rejects(generation.cancel(task.id, 'key_a'), refusedWith(409, 'task_not_cancellable'));
  });
});
