import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { TranscriptionService } from '../../../../src/features/transcription/index.js';
import { encodeWav } from '../../../../src/platform/audio/wav.js';
import { ApiError } from '../../../../src/platform/errors.js';
import { EventBus } from '../../../../src/platform/events.js';
import { JobRepository } from '../../../../src/platform/jobs/job-repository.js';
import { JobQueue } from '../../../../src/platform/jobs/queue.js';
import { createLog } from '../../../../src/platform/log.js';
import { openDatabase, type Db } from '../../../../src/platform/store/database.js';
import { KeptWrites } from '../../../../src/platform/store/kept-writes.js';
import { FakeEngines } from '../../../helpers/fake-engines.js';
import { removeDir, tempDir } from '../../../helpers/timbre.js';

describe('the transcription service (PocketSphinx installed, no voice activity detector)', () => {
  let dir: string;
  let db: Db;
  let kept: KeptWrites;
  let queue: JobQueue;
  let engines: FakeEngines;
  let transcription: TranscriptionService;
  let path: string;

  before(async () => {
    dir = await tempDir();
    db = openDatabase(dir);
    const log = createLog('silent');
    kept = new KeptWrites(log);
    queue = new JobQueue({ jobs: new JobRepository(db, kept), events: new EventBus(log), concurrency: 1, maxQueued: 10 });
    engines = new FakeEngines(0.5, 'four words were heard');
    // An empty models folder: the built-in recognizer is there, the Silero detector is not.
    transcription = new TranscriptionService({ engines, queue, modelsDir: join(dir, 'models'), windowSeconds: 120, cachedTranscripts: 4 });
    path = join(dir, 'speech.wav');
    await writeFile(path, encodeWav({ samples: Float32Array.from({ length: 32000 }, (_, n) => 0.2 * Math.sin(n / 7)), sampleRate: 16000 }));
  });

  after(async () => {
    await queue.close();
    kept.close();
    db.close();
    await removeDir(dir);
  });

  test('the whole file is heard at 16 kHz and comes back with segment and word times', async () => {
    const result = await transcription.transcribe({ path, duration: 2, timestamps: 'word' }, 'key_a');
    assert.equal(result.text, 'four words were heard');
    assert.equal(result.recognizer, 'pocketsphinx');
    assert.equal(result.segments.length, 1);
    assert.ok(Math.abs(result.segments[0]!.end - 2) < 0.01, 'the segment spans the audio');
    assert.deepEqual(
      result.segments[0]!.words.map((word) => word.word),
      ['four', 'words', 'were', 'heard'],
    );
    const recognized = engines.calls.flatMap(({ call }) => (call.method === 'recognize' ? [call.args[0]] : []));
    assert.equal(recognized.at(-1)?.pcm.sampleRate, 16000);
  });

  test('timestamps: segment drops word times, none drops segments; the text stays', async () => {
    const segments = await transcription.transcribe({ path, duration: 2, timestamps: 'segment' }, 'key_a');
    assert.deepEqual(segments.segments[0]?.words, []);
    const none = await transcription.transcribe({ path, duration: 2, timestamps: 'none' }, 'key_a');
    assert.deepEqual([none.text, none.segments], ['four words were heard', []]);
  });

  test('the same recording asked for again is answered from the last transcripts; other bytes or another language are heard anew', async () => {
    const recognitions = () => engines.calls.filter(({ call }) => call.method === 'recognize').length;
    const copy = join(dir, 'copy of speech.wav');
    await writeFile(copy, await readFile(path));
    await transcription.transcribe({ path, duration: 2, timestamps: 'word' }, 'key_a');
    const heard = recognitions();
    const again = await transcription.transcribe({ path: copy, duration: 2, timestamps: 'word' }, 'key_b');
    assert.equal(recognitions(), heard, 'the same bytes under another name are not heard again');
    assert.deepEqual(
      again.segments[0]?.words.map((word) => word.word),
      ['four', 'words', 'were', 'heard'],
    );
    await transcription.transcribe({ path, duration: 2, language: 'en', timestamps: 'word' }, 'key_a');
    assert.equal(recognitions(), heard + 1, 'a stated language is another hearing');
    await writeFile(copy, encodeWav({ samples: new Float32Array(16000), sampleRate: 16000 }));
    await transcription.transcribe({ path: copy, duration: 1, timestamps: 'word' }, 'key_b');
    assert.equal(recognitions(), heard + 2, 'changed bytes are heard');
  });

  test('a language no installed recognizer handles is refused, naming the ones there are', async () => {
    await assert.rejects(transcription.transcribe({ path, duration: 2, language: 'ja', timestamps: 'none' }, 'key_a'), (error: unknown) => {
      return error instanceof ApiError && error.code === 'language_not_supported' && JSON.stringify(error.details).includes('pocketsphinx');
    });
  });
});
