import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { inProcessWithAdmin, injectRequest, mintKey, storedFiles } from '../../../helpers/in-process.js';

const VOICE = 'pico:en-US';
const SCRIPT = {
  speakers: [
    { name: 'Ada', voice_id: VOICE, language: 'en-US', settings: { speed: 1.1 } },
    { name: 'Ben', voice_id: 'pico:en-GB', language: null },
  ],
  lines: [
    { speaker: 'Ada', text: 'The signal came at midnight.' },
    { speaker: 'Ben', text: 'Nobody else heard it.' },
  ],
};

describe('projects', () => {
  const fixture = inProcessWithAdmin();
  const call = (method: string, path: string, json?: unknown, key = fixture.admin.key) => injectRequest(fixture.server, method, path, { key, json });

  async function finished(taskId: string): Promise<any> {
    for (;;) {
      const task = await call('GET', `/api/tasks/${taskId}`);
      if (['completed', 'failed', 'cancelled'].includes(task.body.status)) return task.body;
      await sleep(50);
    }
  }

  test('a project keeps its name and script; reading needs projects:read and changing projects:write', async () => {
    const created = await call('POST', '/api/projects', { name: 'Night Signals', script: SCRIPT });
    assert.equal(created.status, 201);
    assert.deepEqual(created.body.script, SCRIPT);
    const id = created.body.project_id;

    const reader = mintKey(fixture.server, 'reader', ['--scopes', 'projects:read']);
    const stranger = mintKey(fixture.server, 'stranger', ['--scopes', 'tts:generate']);
    assert.equal((await call('GET', `/api/projects/${id}`, undefined, reader.key)).status, 404, 'another root key does not see it');
    assert.equal((await call('POST', '/api/projects', { name: 'x' }, reader.key)).status, 403);
    assert.equal((await call('GET', '/api/projects', undefined, stranger.key)).body.error.code, 'insufficient_scope');

    const renamed = await call('PUT', `/api/projects/${id}`, { name: 'Night Signals, part 2', updated_at: created.body.updated_at });
    assert.equal(renamed.status, 200);
    assert.equal(renamed.body.name, 'Night Signals, part 2');
    const stale = await call('PUT', `/api/projects/${id}`, { name: 'lost', updated_at: created.body.updated_at });
    assert.equal(stale.status, 409);
    assert.equal(stale.body.error.code, 'project_changed');

    const bad = await call('PUT', `/api/projects/${id}`, { script: { speakers: [], lines: [{ speaker: 'Zed', text: 'Hi.' }] } });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.code, 'invalid_script');

    const listed = await call('GET', '/api/projects?q=signals');
    assert.deepEqual(
      listed.body.projects.map((project: { project_id: string }) => project.project_id),
      [id],
    );
    assert.deepEqual(listed.body.projects[0].speakers, ['Ada', 'Ben']);
    assert.equal((await call('GET', '/api/projects?q=nowhere')).body.projects.length, 0);
  });

  test('a key sees the projects and tasks of the keys it created, not the other way round', async () => {
    const child = await call('POST', '/api/api-keys', { name: 'child' });
    assert.equal(child.status, 201);
    const mine = await call('POST', '/api/projects', { name: 'Child work' }, child.body.key);
    assert.equal((await call('GET', `/api/projects/${mine.body.project_id}`)).status, 200, 'the admin above it sees it');
    const above = await call('POST', '/api/projects', { name: 'Admin work' });
    assert.equal((await call('GET', `/api/projects/${above.body.project_id}`, undefined, child.body.key)).status, 404);
    const childTask = await call(
      'POST',
      '/api/generate/preset',
      { voice_id: VOICE, text: 'From the child.', project_id: mine.body.project_id },
      child.body.key,
    );
    assert.equal((await call('GET', `/api/tasks/${String(childTask.headers['x-task-id'])}/audio`)).status, 200, 'tasks too belong to the keys above');
    const adminTask = await call('POST', '/api/generate/preset', { voice_id: VOICE, text: 'From the admin.' });
    assert.equal((await call('GET', `/api/tasks/${String(adminTask.headers['x-task-id'])}`, undefined, child.body.key)).status, 404);
  });

  test('generations filed into a project are listed in it and on GET /api/tasks, a page at a time', async () => {
    const project = (await call('POST', '/api/projects', { name: 'Filing' })).body.project_id;
    const filed = await call('POST', '/api/generate/preset', { voice_id: VOICE, text: 'One for the project.', project_id: project });
    assert.equal(filed.status, 200);
    const loose = await call('POST', '/api/generate/preset', { voice_id: VOICE, text: 'One on its own.' });
    const viaOpenAi = await injectRequest(fixture.server, 'POST', '/v1/audio/speech', {
      key: fixture.admin.key,
      json: { model: 'tts-1', voice: { id: VOICE }, input: 'One through the OpenAI route.', response_format: 'wav' },
      headers: { 'x-timbre-project-id': project },
    });
    assert.equal(viaOpenAi.status, 200, viaOpenAi.text);

    const view = await call('GET', `/api/projects/${project}`);
    const ids = view.body.tasks.map((task: { task_id: string }) => task.task_id);
    assert.deepEqual(new Set(ids), new Set([filed.headers['x-task-id'], viaOpenAi.headers['x-task-id']]));
    assert.equal(view.body.tasks[0].project_id, project);

    const foreign = await call('POST', '/api/projects', { name: 'Not yours' }, mintKey(fixture.server, 'other root').key);
    const refused = await call('POST', '/api/generate/preset', { voice_id: VOICE, text: 'Nope.', project_id: foreign.body.project_id });
    assert.equal(refused.status, 404);
    assert.equal(refused.body.error.code, 'project_not_found');

    const inProject = await call('GET', `/api/tasks?project_id=${project}`);
    assert.equal(inProject.body.total, 2);
    const unfiled = await call('GET', '/api/tasks?project_id=none&kind=generation&status=completed');
    assert.ok(unfiled.body.tasks.some((task: { task_id: string }) => task.task_id === loose.headers['x-task-id']));
    assert.ok(unfiled.body.tasks.every((task: { project_id: string | null }) => task.project_id === null));
    const summary = unfiled.body.tasks.find((task: { task_id: string }) => task.task_id === loose.headers['x-task-id']);
    assert.equal(summary.excerpt, 'One on its own.');
    assert.deepEqual(summary.voices, [VOICE]);
    assert.ok(summary.duration > 0);
    assert.equal(summary.links.audio, `/api/tasks/${summary.task_id}/audio`);

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: any = await call('GET', `/api/tasks?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      assert.ok(page.body.tasks.length <= 2);
      seen.push(...page.body.tasks.map((task: { task_id: string }) => task.task_id));
      cursor = page.body.next_cursor;
    } while (cursor);
    assert.equal(new Set(seen).size, seen.length, 'no task twice across pages');
    assert.equal(seen.length, (await call('GET', '/api/tasks')).body.total);
    const times = (await call('GET', '/api/tasks?limit=100')).body.tasks.map((task: { created_at: string }) => task.created_at);
    assert.deepEqual(times, [...times].sort().reverse(), 'newest first');
    assert.equal((await call('GET', '/api/tasks?cursor=bogus')).body.error.code, 'invalid_cursor');
  });

  test('deleting a project deletes its tasks and leaves none of their files behind', async () => {
    const before = new Set(await storedFiles(fixture.server.dataDir));
    const project = (await call('POST', '/api/projects', { name: 'Doomed', script: SCRIPT })).body.project_id;
    const generated = await call('POST', '/api/generate/preset', { voice_id: VOICE, text: 'Short lived.', project_id: project });
    const longForm = await call('POST', '/api/generate/clone-chunked-multivoice', {
      script: 'Ada: The signal came at midnight. It came again.\nBen: Nobody else heard it.',
      voices: { Ada: VOICE, Ben: 'pico:en-GB' },
      project_id: project,
    });
    assert.equal(longForm.status, 202, longForm.text);
    await finished(longForm.body.task_id);
    assert.equal((await call('POST', '/api/generate/merge-chunks', { task_id: longForm.body.task_id })).status, 200);
    const reopened = (await call('GET', `/api/projects/${project}`)).body;
    assert.deepEqual(reopened.script, SCRIPT, 'the script and its speakers come back as saved');
    assert.deepEqual(
      new Set(reopened.tasks.map((task: { task_id: string }) => task.task_id)),
      new Set([generated.headers['x-task-id'], longForm.body.task_id]),
    );
    assert.deepEqual(
      reopened.renders.map((entry: { task_id: string; render: { kind: string } }) => [entry.task_id, entry.render.kind]),
      [[longForm.body.task_id, 'merge']],
    );
    const chunks = (await call('GET', `/api/tasks/${longForm.body.task_id}`)).body.chunks;
    assert.deepEqual(
      chunks.map((chunk: { speaker: string }) => chunk.speaker),
      ['Ada', 'Ada', 'Ben'],
    );
    const added = (await storedFiles(fixture.server.dataDir)).filter((file) => !before.has(file));
    assert.ok(added.length >= 4, `the project's work wrote files: ${added.join(', ')}`);

    assert.equal((await call('DELETE', `/api/projects/${project}`)).status, 204);
    assert.equal((await call('GET', `/api/projects/${project}`)).status, 404);
    assert.equal((await call('GET', `/api/tasks/${String(generated.headers['x-task-id'])}`)).status, 404);
    assert.equal((await call('GET', `/api/tasks/${longForm.body.task_id}`)).status, 404);
    const left = (await storedFiles(fixture.server.dataDir)).filter((file) => !before.has(file));
    assert.deepEqual(left, []);
  });
});
