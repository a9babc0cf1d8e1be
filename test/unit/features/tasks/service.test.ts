import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { newTask, RenderRepository, TaskRepository, TaskService, type TaskRecord } from '../../../../src/features/tasks/index.js';
import { ApiError } from '../../../../src/platform/errors.js';
import { createLog } from '../../../../src/platform/log.js';
import { AudioStore } from '../../../../src/platform/store/audio-store.js';
import { openDatabase, type Db } from '../../../../src/platform/store/database.js';
import { KeptWrites } from '../../../../src/platform/store/kept-writes.js';

const AT = '2026-11-24T00:00:00.000Z';

function task(id: string, changes: Partial<TaskRecord> = {}): TaskRecord {
  const fields = { ownerKeyId: 'key_a', voiceId: 'pico:en-US', text: 'Hello.', language: 'en-US', format: 'wav', sampleRate: null };
  return { ...newTask('generation', fields, AT), id, ...changes };
}

async function rejectsWith(promise: Promise<unknown>, status: number, code: string): Promise<void> {
  await assert.rejects(promise, (error: unknown) => error instanceof ApiError && error.statusCode === status && error.code === code);
}

describe('the tasks service', () => {
  let dataDir: string;
  let db: Db;
  let kept: KeptWrites;
  let repository: TaskRepository;
  let audio: AudioStore;
  let tasks: TaskService;

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'timbre-tasks-'));
    db = openDatabase(dataDir);
    kept = new KeptWrites(createLog('silent'));
    repository = new TaskRepository(db, kept);
    audio = new AudioStore(dataDir);
    tasks = new TaskService({ tasks: repository, audio, renders: new RenderRepository(db) });
  });

  after(async () => {
    kept.close();
    db.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  test('a task exists only for the key that created it', () => {
    repository.insert(task('task_owned'));
    assert.equal(tasks.owned('task_owned', 'key_a').id, 'task_owned');
    assert.throws(
      () => tasks.owned('task_owned', 'key_b'),
      (error: unknown) => error instanceof ApiError && error.code === 'task_not_found',
    );
    assert.throws(
      () => tasks.owned('task_missing', 'key_a'),
      (error: unknown) => error instanceof ApiError && error.statusCode === 404,
    );
  });

  test('audio is read only from a completed task; anything else is 409 task_not_ready', async () => {
    const stored = audio.pathFor('task_done.wav');
    await audio.write(stored, Buffer.from('RIFF-bytes'));
    repository.insert(task('task_done', { status: 'completed', audioPath: stored }));
    assert.equal((await tasks.audioOf(tasks.owned('task_done', 'key_a'))).toString(), 'RIFF-bytes');
    repository.insert(task('task_running', { status: 'running' }));
    await rejectsWith(tasks.audioOf(tasks.owned('task_running', 'key_a')), 409, 'task_not_ready');
  });

  test('a kind of task adds its own fields to what every task shows; a kind is described once', () => {
    tasks.describeKind('long-form', (shown) => ({ chunks: [{ index: 0, of: shown.id }] }));
    repository.insert(task('task_long', { kind: 'long-form' }));
    const long = tasks.present(tasks.owned('task_long', 'key_a'));
    assert.deepEqual(long.chunks, [{ index: 0, of: 'task_long' }]);
    assert.equal(long.status, 'queued');
    const single = tasks.present(tasks.owned('task_owned', 'key_a'));
    assert.equal('chunks' in single, false);
    assert.equal(single.audio_url, null);
    assert.throws(() => tasks.describeKind('long-form', () => ({})));
  });

  test('downloads are named after the task’s project, else its first words, safe as a file name', () => {
    const long = 'A rather long opening sentence: it keeps going / past forty characters.';
    const loose = task('task_loose', { text: long });
    assert.equal(tasks.downloadName(loose, 'chunk 3', 'wav'), 'A rather long opening sentence it keeps - chunk 3.wav');
    assert.equal(tasks.downloadName(task('task_empty', { text: '\u0000"/' }), 'speech', 'wav'), 'task_empty - speech.wav');
    tasks.describeProjects((id) => (id === 'project_1' ? 'Night Signals' : undefined));
    assert.equal(tasks.downloadName(task('task_filed', { projectId: 'project_1' }), 'timeline', 'mp4'), 'Night Signals - timeline.mp4');
  });

  test('subtitle cues come from sentence times, else word times (grouped into sentences, or one per word), else 409 timings_unavailable', () => {
    const sentences = task('task_sentences', { timings: { sentences: [{ start: 0, end: 1.5, text: 'Hello.', index: 0 }] } });
    const words = task('task_words', { timings: { words: [{ word: 'Hello', start: 0.1, end: 0.6 }], phonemes: null } });
    assert.deepEqual(tasks.cuesOf(sentences), [{ start: 0, end: 1.5, text: 'Hello.' }]);
    assert.deepEqual(tasks.cuesOf(words), [{ start: 0.1, end: 0.6, text: 'Hello.' }], 'a sentence as written, from its words');
    assert.deepEqual(tasks.cuesOf(words, 'merge', 'word'), [{ start: 0.1, end: 0.6, text: 'Hello' }]);
    assert.throws(
      () => tasks.cuesOf(task('task_plain')),
      (error: unknown) => error instanceof ApiError && error.code === 'timings_unavailable',
    );
  });
});
