// In-process: tasks are aged by rewriting their times in SQLite (the test owns its data directory), never by waiting.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { TaskRetention } from '../../../../src/features/storage/index.js';
import { createLog } from '../../../../src/platform/log.js';
import { inProcessWithAdmin, injectRequest } from '../../../helpers/in-process.js';

const LONG_AGO = '2000-01-01T00:00:00.000Z';
const SPEAK = { voice_id: 'pico:en-US', text: 'Kept for a while.', language: 'en-US', format: 'wav' };

describe('task retention', () => {
  const fixture = inProcessWithAdmin({ flags: { 'task-retention-days': '30' } });
  const db = () => fixture.server.services.db;
  const post = (path: string, json: unknown) => injectRequest(fixture.server, 'POST', path, { key: fixture.admin.key, json });
  const get = (path: string) => injectRequest(fixture.server, 'GET', path, { key: fixture.admin.key });
  const age = (taskId: string) => db().prepare('UPDATE tasks SET created_at = ?, updated_at = ? WHERE id = ?').run(LONG_AGO, LONG_AGO, taskId);
  const exists = (taskId: string) => db().prepare('SELECT 1 FROM tasks WHERE id = ?').get(taskId) !== undefined;
  const generate = async () => {
    const answer = await post('/api/generate/preset', SPEAK);
    assert.equal(answer.status, 200, answer.text);
    return String(answer.headers['x-task-id']);
  };
  const finished = async (taskId: string, take = 1) => {
    for (;;) {
      const task = await get(`/api/tasks/${taskId}`);
      const done = task.body.chunks.every((chunk: { takes: { take: number; state: string }[] }) =>
        chunk.takes.every((candidate) => candidate.take > take || ['completed', 'failed'].includes(candidate.state)),
      );
      if (['completed', 'failed'].includes(task.body.status) && done) return task.body;
      await sleep(50);
    }
  };

  test('an old unfiled generation and a long-form task with takes, a merge and timeline media go with every row and file', async () => {
    const single = await generate();
    const started = await post('/api/generate/clone-chunked', { voice_id: 'pico:en-US', text: 'One line. Another line.', language: 'en-US' });
    assert.equal(started.status, 202, started.text);
    const longForm = String(started.body.task_id);
    await finished(longForm);
    const regenerated = await post('/api/generate/regenerate-chunk', { task_id: longForm, index: 0, text: 'A new first line.' });
    assert.equal(regenerated.status, 202, regenerated.text);
    await finished(longForm, 2);
    const merged = await post('/api/generate/merge-chunks', { task_id: longForm });
    assert.equal(merged.status, 200, merged.text);
    // A picture imported into the timeline, as the import route records it.
    const mediaPath = join('timeline', longForm, 'media_test.png');
    await mkdir(join(fixture.server.dataDir, 'timeline', longForm), { recursive: true });
    await writeFile(join(fixture.server.dataDir, mediaPath), 'picture');
    db()
      .prepare(`INSERT INTO timeline_media (id, task_id, kind, path, has_audio, created_at) VALUES ('media_test', ?, 'image', ?, 0, ?)`)
      .run(longForm, mediaPath, LONG_AGO);

    const ids = JSON.stringify([single, longForm]);
    const files = db()
      .prepare(
        `SELECT audio_path FROM tasks WHERE id IN (SELECT value FROM json_each(@ids)) AND audio_path IS NOT NULL
         UNION ALL SELECT audio_path FROM chunk_takes WHERE task_id IN (SELECT value FROM json_each(@ids))
         UNION ALL SELECT path FROM renders WHERE task_id IN (SELECT value FROM json_each(@ids))
         UNION ALL SELECT path FROM timeline_media WHERE task_id IN (SELECT value FROM json_each(@ids))`,
      )
      .pluck()
      .all({ ids })
      .map(String);
    assert.ok(files.length >= 6, `the task audio, three takes, a render, the picture: ${files.join(', ')}`);
    for (const file of files) assert.ok(existsSync(join(fixture.server.dataDir, file)), file);
    age(single);
    age(longForm);

    const status = await get('/api/system/status');
    const own = status.body.storage.keys.find((entry: { key_id: string }) => entry.key_id === fixture.admin.key_id);
    assert.equal(status.body.storage.retention_days, 30);
    assert.equal(own.expiring.tasks, 2);
    assert.ok(own.expiring.bytes > 0 && own.expiring.bytes <= own.used_bytes, JSON.stringify(own));

    assert.equal(await fixture.server.services.storage.retention.sweep(), 2);
    assert.equal(exists(single), false);
    assert.equal(exists(longForm), false);
    for (const table of ['chunks', 'chunk_takes', 'renders', 'timeline_media', 'timelines', 'jobs']) {
      const left = db().prepare(`SELECT count(*) FROM ${table} WHERE task_id IN (SELECT value FROM json_each(?))`).pluck().get(ids);
      assert.equal(left, 0, table);
    }
    for (const file of files) assert.equal(existsSync(join(fixture.server.dataDir, file)), false, file);
    assert.equal(existsSync(join(fixture.server.dataDir, 'timeline', longForm)), false, 'the media folder');
    assert.equal((await get(`/api/tasks/${single}`)).status, 404);
  });

  test('a task filed in a project, a running task and a task with a running job survive; 0 days keeps everything', async () => {
    const filed = await generate();
    db()
      .prepare(`INSERT INTO projects (id, owner_key_id, name, script, created_at, updated_at) VALUES ('project_kept', ?, 'Kept', '{}', ?, ?)`)
      .run(fixture.admin.key_id, LONG_AGO, LONG_AGO);
    db().prepare(`UPDATE tasks SET project_id = 'project_kept' WHERE id = ?`).run(filed);
    const running = await generate();
    db().prepare(`UPDATE tasks SET status = 'running' WHERE id = ?`).run(running);
    const withJob = await generate();
    db()
      .prepare(`INSERT INTO jobs (id, kind, owner_key_id, task_id, state, payload, created_at) VALUES ('job_held', 'synthesis', ?, ?, 'running', '{}', ?)`)
      .run(fixture.admin.key_id, withJob, LONG_AGO);
    const unfiled = await generate();
    for (const taskId of [filed, running, withJob, unfiled]) age(taskId);

    const keepAll = new TaskRetention({ db: db(), removal: fixture.server.services.storage.removal, retentionDays: 0, log: createLog('warn') });
    assert.equal(await keepAll.sweep(), 0);
    assert.ok(exists(unfiled), 'with 0 days nothing goes');

    assert.equal(await fixture.server.services.storage.retention.sweep(), 1);
    assert.equal(exists(unfiled), false);
    for (const taskId of [filed, running, withJob]) assert.ok(exists(taskId), taskId);
    db().prepare(`DELETE FROM jobs WHERE id = 'job_held'`).run();
  });
});
