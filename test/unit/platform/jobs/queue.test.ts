import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { ApiError, EngineError } from '../../../../src/platform/errors.js';
import { Type } from 'typebox';
import { jobKind } from '../../../../src/platform/jobs/kinds.js';
import { JobQueue } from '../../../../src/platform/jobs/queue.js';
import type { JobRecord, JobRunContext } from '../../../../src/platform/jobs/types.js';
import { EventBus, isJobEvent, type Audience, type JobEvent } from '../../../../src/platform/events.js';
import { openDatabase, type Db } from '../../../../src/platform/store/database.js';
import { JobRepository } from '../../../../src/platform/jobs/job-repository.js';
import { KeptWrites } from '../../../../src/platform/store/kept-writes.js';
import { createLog } from '../../../../src/platform/log.js';
import { removeDir, tempDir } from '../../../helpers/timbre.js';

/** Kinds whose payloads are anything JSON: these tests are about the queue, not payloads. */
const WORK = jobKind('work', Type.Unknown());
const RESUMABLE = jobKind('resumable', Type.Unknown(), { resumable: true });
const STUBBORN = jobKind('stubborn', Type.Unknown());
/** Quick when its payload says so, as a synthesis is when its text is short. */
const SPEAKING = jobKind('speaking', Type.Object({ sentence: Type.Boolean() }), { quick: (payload) => payload.sentence });
/** Waits on the network, as a model download does: it holds no slot. */
const DOWNLOAD = jobKind('download', Type.Unknown(), { computes: false });

interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

interface Call {
  payload: unknown;
  context: JobRunContext;
  /** Settles the runner's promise: the test decides when each job ends. */
  outcome: Deferred<Record<string, unknown>>;
}

/**
 * A runner whose calls the test observes (`started(n)`) and ends (`outcome`) one by one. Like a
 * well-behaved runner, it rejects with the signal's reason when its job is aborted.
 */
class Gate {
  readonly calls: Call[] = [];
  private readonly arrivals: Deferred<Call>[] = [];

  readonly runner = (payload: unknown, context: JobRunContext): Promise<Record<string, unknown>> => {
    const call: Call = { payload, context, outcome: deferred() };
    this.calls.push(call);
    context.signal.addEventListener('abort', () => call.outcome.reject(context.signal.reason));
    this.arrival(this.calls.length - 1).resolve(call);
    return call.outcome.promise;
  };

  started(index: number): Promise<Call> {
    return this.arrival(index).promise;
  }

  private arrival(index: number): Deferred<Call> {
    this.arrivals[index] ??= deferred();
    return this.arrivals[index];
  }
}

function errorOf(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  assert.fail('expected an ApiError');
}

describe('JobQueue', () => {
  let dir: string;
  let db: Db;
  let jobs: JobRepository;
  let events: EventBus;
  let seen: (JobEvent & { audience: Audience })[];
  let gate: Gate;

  function makeQueue(options: { concurrency?: number; maxQueued?: number } = {}): JobQueue {
    const queue = new JobQueue({ jobs, events, concurrency: options.concurrency ?? 1, maxQueued: options.maxQueued ?? 10 });
    queue.register(WORK, gate.runner);
    return queue;
  }

  const eventsOf = (jobId: string) => seen.filter((event) => event.data.job_id === jobId);
  const typesOf = (jobId: string) => eventsOf(jobId).map((event) => event.type);

  beforeEach(async () => {
    dir = await tempDir();
    db = openDatabase(dir);
    jobs = new JobRepository(db, new KeptWrites(createLog('silent')));
    events = new EventBus(createLog('silent'));
    seen = [];
    events.subscribe((event) => {
      if (isJobEvent(event)) seen.push(event);
    });
    gate = new Gate();
  });
  afterEach(async () => {
    db.close();
    await removeDir(dir);
  });

  test('runs jobs first in first out and shows their positions', async () => {
    const queue = makeQueue();
    const [a, b, c] = ['a', 'b', 'c'].map((payload) => queue.submit({ kind: WORK, ownerKeyId: 'key_1', payload }));
    assert.ok(a && b && c);
    assert.equal(a.state, 'queued');
    assert.match(a.id, /^job_[A-Za-z0-9_-]+$/);
    assert.deepEqual(
      [a, b, c].map((job) => {
        const queued = eventsOf(job.id)[0];
        return queued?.type === 'job.queued' ? queued.data.position : undefined;
      }),
      [1, 2, 3],
    );

    (await gate.started(0)).outcome.resolve({});
    const status = queue.status();
    assert.equal(status.concurrency, 1);
    assert.deepEqual(
      status.running.map((view) => [view.job_id, view.position, view.state]),
      [[a.id, 0, 'running']],
    );
    assert.deepEqual(
      status.queued.map((view) => [view.job_id, view.position]),
      [
        [b.id, 1],
        [c.id, 2],
      ],
    );

    (await gate.started(1)).outcome.resolve({});
    (await gate.started(2)).outcome.resolve({});
    await queue.wait(c.id);
    assert.deepEqual(
      gate.calls.map((call) => call.payload),
      ['a', 'b', 'c'],
    );
  });

  test('a running job that reports nothing is still heard from: progress repeats with the last fraction', async () => {
    const queue = makeQueue();
    const job = queue.submit({ kind: WORK, ownerKeyId: 'key_1', payload: 'slow' });
    const call = await gate.started(0);
    call.context.progress(0.25, 'synthesizing');
    const heard = deferred<JobEvent<'job.progress'>>();
    const unsubscribe = events.subscribe((event) => {
      if (event.type === 'job.progress' && event.data.job_id === job.id) heard.resolve(event);
    });
    const repeated = await heard.promise;
    unsubscribe();
    assert.equal(repeated.data.progress, 0.25);
    assert.equal(repeated.data.stage, 'synthesizing');
    call.outcome.resolve({});
    await queue.wait(job.id);
  });

  test('with concurrency 1 the second job waits; with 2 two run and the third waits', async () => {
    const single = makeQueue();
    single.submit({ kind: WORK, ownerKeyId: null, payload: 1 });
    const second = single.submit({ kind: WORK, ownerKeyId: null, payload: 2 });
    const first = await gate.started(0);
    await nextTurn();
    assert.equal(gate.calls.length, 1);
    assert.equal(single.get(second.id)?.state, 'queued');
    first.outcome.resolve({});
    (await gate.started(1)).outcome.resolve({});
    assert.equal((await single.wait(second.id)).state, 'completed');

    gate = new Gate();
    const double = makeQueue({ concurrency: 2 });
    const ids = [1, 2, 3].map((payload) => double.submit({ kind: WORK, ownerKeyId: null, payload }).id);
    await Promise.all([gate.started(0), gate.started(1)]);
    await nextTurn();
    assert.equal(gate.calls.length, 2);
    assert.deepEqual(
      double.status().queued.map((view) => view.job_id),
      [ids[2]],
    );
    await double.close();
  });

  test('a raised concurrency (a worker joined) starts waiting jobs at once; a lowered one lets running jobs finish', async () => {
    const queue = makeQueue();
    const ids = [1, 2, 3].map((payload) => queue.submit({ kind: WORK, ownerKeyId: null, payload }).id);
    await gate.started(0);
    queue.setConcurrency(3);
    await Promise.all([gate.started(1), gate.started(2)]);
    assert.equal(queue.status().concurrency, 3);
    queue.setConcurrency(1);
    const fourth = queue.submit({ kind: WORK, ownerKeyId: null, payload: 4 }).id;
    gate.calls[0]!.outcome.resolve({});
    gate.calls[1]!.outcome.resolve({});
    await Promise.all(ids.slice(0, 2).map((id) => queue.wait(id)));
    await nextTurn();
    assert.equal(gate.calls.length, 3, 'two jobs still above the new number: the fourth waits');
    assert.equal(queue.get(fourth)?.state, 'queued');
    assert.throws(() => queue.setConcurrency(0), RangeError);
    await queue.close();
  });

  test('a quick job starts beside the running one in the quick lane, one at a time; other jobs keep their turn', { timeout: 5000 }, async () => {
    const queue = makeQueue();
    queue.register(SPEAKING, gate.runner);
    const submit = (sentence: boolean) => queue.submit({ kind: SPEAKING, ownerKeyId: 'key_1', payload: { sentence } }).id;
    const [long, next, first, second] = [submit(false), submit(false), submit(true), submit(true)];
    const running = await gate.started(0);
    const quick = await gate.started(1);
    await nextTurn();
    assert.equal(gate.calls.length, 2, 'one job in the slot, one in the quick lane');
    assert.deepEqual([running.payload, running.context.quick, quick.payload, quick.context.quick], [{ sentence: false }, false, { sentence: true }, true]);
    assert.deepEqual(
      queue.status().queued.map((view) => view.job_id),
      [next, second],
    );
    quick.outcome.resolve({});
    assert.deepEqual((await gate.started(2)).payload, { sentence: true }, 'the next quick job takes the quick lane');
    assert.equal(queue.get(next)?.state, 'queued', 'a long job waits for the slot');
    gate.calls[2]!.outcome.resolve({});
    running.outcome.resolve({});
    (await gate.started(3)).outcome.resolve({});
    for (const id of [long, next, first, second]) assert.equal((await queue.wait(id)).state, 'completed');
  });

  test('a job that computes nothing starts at once beside full slots and holds none of them', { timeout: 5000 }, async () => {
    const queue = makeQueue();
    queue.register(DOWNLOAD, gate.runner);
    const work = queue.submit({ kind: WORK, ownerKeyId: 'key_1', payload: 'speech' }).id;
    await gate.started(0);
    const download = queue.submit({ kind: DOWNLOAD, ownerKeyId: 'key_1', payload: 'model' }).id;
    assert.equal((await gate.started(1)).payload, 'model', 'it did not wait for the busy slot');
    const next = queue.submit({ kind: WORK, ownerKeyId: 'key_1', payload: 'more speech' }).id;
    gate.calls[0]!.outcome.resolve({});
    assert.equal((await gate.started(2)).payload, 'more speech', 'the running download did not take the freed slot');
    gate.calls[1]!.outcome.resolve({});
    gate.calls[2]!.outcome.resolve({});
    for (const id of [work, download, next]) assert.equal((await queue.wait(id)).state, 'completed');
  });

  test('a completed job stores its result and reports it in order to its owner', async () => {
    const queue = makeQueue();
    const job = queue.submit({ kind: WORK, ownerKeyId: 'key_1', taskId: 'task_1', payload: { text: 'hi' } });
    const call = await gate.started(0);
    assert.deepEqual(call.payload, { text: 'hi' });
    call.context.progress(0.5, 'synthesizing', { chunk_index: 0 });
    call.outcome.resolve({ duration: 1.5 });
    const done = await queue.wait(job.id);

    assert.equal(done.state, 'completed');
    assert.equal(done.progress, 1);
    assert.deepEqual(done.result, { duration: 1.5 });
    assert.deepEqual(jobs.findById(job.id)?.result, { duration: 1.5 });
    assert.ok(done.startedAt && done.finishedAt);
    assert.deepEqual(typesOf(job.id), ['job.queued', 'job.started', 'job.progress', 'job.completed']);
    for (const event of eventsOf(job.id)) assert.deepEqual(event.audience, { keyId: 'key_1' });
    const [, started, progress, completed] = eventsOf(job.id);
    assert.deepEqual(started?.data, { job_id: job.id, kind: 'work', task_id: 'task_1' });
    assert.deepEqual(progress?.data, { job_id: job.id, kind: 'work', task_id: 'task_1', progress: 0.5, stage: 'synthesizing', chunk_index: 0 });
    assert.deepEqual(completed?.data, { job_id: job.id, kind: 'work', task_id: 'task_1', duration: 1.5 });
  });

  test('a job without an owner is announced to everyone', async () => {
    const queue = makeQueue();
    const job = queue.submit({ kind: WORK, ownerKeyId: null, payload: null });
    (await gate.started(0)).outcome.resolve({});
    await queue.wait(job.id);
    for (const event of eventsOf(job.id)) assert.deepEqual(event.audience, { everyone: true });
  });

  test('cancelling a queued job removes it from the line at once', async () => {
    const queue = makeQueue();
    const first = queue.submit({ kind: WORK, ownerKeyId: 'key_1', payload: 1 });
    const second = queue.submit({ kind: WORK, ownerKeyId: 'key_1', payload: 2 });
    const running = await gate.started(0);

    assert.equal(queue.cancel(second.id).state, 'cancelled');
    assert.equal(jobs.findById(second.id)?.state, 'cancelled');
    assert.deepEqual(queue.status().queued, []);
    assert.deepEqual(typesOf(second.id), ['job.queued', 'job.cancelled']);
    assert.deepEqual(eventsOf(second.id)[1]?.audience, { keyId: 'key_1' });
    assert.equal((await queue.wait(second.id)).state, 'cancelled');

    running.outcome.resolve({});
    await queue.wait(first.id);
    await nextTurn();
    assert.equal(gate.calls.length, 1);
  });

  test('cancelling a running job aborts its signal and ends it cancelled', async () => {
    const queue = makeQueue();
    const job = queue.submit({ kind: WORK, ownerKeyId: 'key_1', payload: null });
    const next = queue.submit({ kind: WORK, ownerKeyId: 'key_1', payload: null });
    const call = await gate.started(0);

    assert.equal(queue.cancel(job.id).state, 'running');
    assert.ok(call.context.signal.aborted);
    const ended = await queue.wait(job.id);
    assert.equal(ended.state, 'cancelled');
    assert.equal(ended.error, null);
    assert.equal(jobs.findById(job.id)?.state, 'cancelled');
    assert.deepEqual(typesOf(job.id), ['job.queued', 'job.started', 'job.cancelled']);
    assert.equal(errorOf(() => queue.cancel(job.id)).code, 'job_not_cancellable');

    (await gate.started(1)).outcome.resolve({});
    assert.equal((await queue.wait(next.id)).state, 'completed');
  });

  test('a runner that fails with its own error after the abort still ends cancelled', async () => {
    const queue = makeQueue();
    const started = deferred<void>();
    queue.register(STUBBORN, (_payload, context) => {
      started.resolve();
      return new Promise((_resolve, reject) => {
        context.signal.addEventListener('abort', () => reject(new EngineError('engine_crashed', 'The engine died')));
      });
    });
    const job = queue.submit({ kind: STUBBORN, ownerKeyId: null, payload: null });
    await started.promise;
    queue.cancel(job.id);
    const ended = await queue.wait(job.id);
    assert.equal(ended.state, 'cancelled');
    assert.equal(ended.error, null);
  });

  test('cancel refuses unknown jobs with job_not_found', () => {
    const error = errorOf(() => makeQueue().cancel('job_nope'));
    assert.equal(error.statusCode, 404);
    assert.equal(error.code, 'job_not_found');
  });

  test('a failing runner fails its job with the error code, or internal_error for a plain error', async () => {
    const queue = makeQueue();
    const engine = queue.submit({ kind: WORK, ownerKeyId: 'key_1', payload: null });
    const api = queue.submit({ kind: WORK, ownerKeyId: 'key_1', payload: null });
    const plain = queue.submit({ kind: WORK, ownerKeyId: 'key_1', payload: null });
    (await gate.started(0)).outcome.reject(new EngineError('voice_not_found', 'No voice x', { voice: 'x' }));
    (await gate.started(1)).outcome.reject(new ApiError(400, 'text_empty', 'No text'));
    (await gate.started(2)).outcome.reject(new Error('boom'));

    const failed = await queue.wait(engine.id);
    assert.equal(failed.state, 'failed');
    assert.deepEqual(failed.error, { code: 'voice_not_found', message: 'No voice x', details: { voice: 'x' } });
    assert.deepEqual(jobs.findById(engine.id)?.error, failed.error);
    const told = eventsOf(engine.id).at(-1);
    assert.equal(told?.type, 'job.failed');
    assert.deepEqual(told.data.error, failed.error);
    assert.equal((await queue.wait(api.id)).error?.code, 'text_empty');
    assert.deepEqual(
      (await queue.wait(plain.id)).error,
      { code: 'internal_error', message: 'The job failed because of an error in the service', details: {} },
      'what a bug said stays in the log',
    );
    assert.deepEqual(typesOf(plain.id), ['job.queued', 'job.started', 'job.failed']);
  });

  test('a payload that does not fit its kind is refused at submit, and a stored one fails only its own job at recovery', async () => {
    const SPEAK = jobKind('speak', Type.Object({ text: Type.String(), speed: Type.Optional(Type.Number()) }));
    const queue = makeQueue();
    queue.register(SPEAK, gate.runner);
    // @ts-expect-error: the type of a kind's payload is its schema's, so a wrong one does not compile either
    assert.throws(() => queue.submit({ kind: SPEAK, ownerKeyId: null, payload: { text: 5 } }), /does not fit its kind: \/text/);
    const at = '2024-01-01T00:00:00.000Z';
    const base = { ownerKeyId: 'key_1', taskId: null, progress: 0, stage: null, result: null, error: null, startedAt: null, finishedAt: null };
    jobs.insert({ ...base, id: 'job_outdated', kind: 'speak', state: 'queued', payload: { words: ['hi'] }, createdAt: at });
    jobs.insert({ ...base, id: 'job_current', kind: 'speak', state: 'queued', payload: { text: 'hi' }, createdAt: '2024-01-01T00:00:01.000Z' });
    assert.deepEqual(queue.recover(), { requeued: 2, interrupted: 0 });
    const outdated = await queue.wait('job_outdated');
    assert.equal(outdated.state, 'failed');
    assert.equal(outdated.error?.code, 'invalid_job_payload');
    assert.deepEqual(outdated.error?.details, { kind: 'speak', problem: '/ must have required properties text' });
    const current = await gate.started(0);
    assert.deepEqual(current.payload, { text: 'hi' }, 'the queue goes on with the next job');
    current.outcome.resolve({});
    assert.equal((await queue.wait('job_current')).state, 'completed');
  });

  test('recover fails jobs that were running with interrupted and runs queued ones again', async () => {
    const at = '2024-01-01T00:00:00.000Z';
    const stored = (id: string, state: JobRecord['state']): JobRecord => ({
      id,
      kind: WORK.name,
      ownerKeyId: 'key_1',
      taskId: null,
      state,
      progress: 0.3,
      stage: null,
      payload: { id },
      result: null,
      error: null,
      createdAt: at,
      startedAt: state === 'running' ? at : null,
      finishedAt: null,
    });
    jobs.insert(stored('job_was_running', 'running'));
    jobs.insert(stored('job_was_queued', 'queued'));

    const queue = makeQueue();
    assert.deepEqual(queue.recover(), { requeued: 1, interrupted: 1 });
    const interrupted = jobs.findById('job_was_running');
    assert.equal(interrupted?.state, 'failed');
    assert.equal(interrupted?.error?.code, 'interrupted');

    const call = await gate.started(0);
    assert.deepEqual(call.payload, { id: 'job_was_queued' });
    call.outcome.resolve({ ok: true });
    assert.equal((await queue.wait('job_was_queued')).state, 'completed');
    assert.equal(jobs.findById('job_was_queued')?.state, 'completed');
  });

  test("recover runs a resumable kind's interrupted job again, in its original order, before later queued jobs", async () => {
    const stored = (id: string, kind: string, state: JobRecord['state'], createdAt: string): JobRecord => ({
      id,
      kind,
      ownerKeyId: 'key_1',
      taskId: null,
      state,
      progress: 0.5,
      stage: 'speaking',
      payload: { id },
      result: null,
      error: null,
      createdAt,
      startedAt: state === 'running' ? createdAt : null,
      finishedAt: null,
    });
    jobs.insert(stored('job_resumable', 'resumable', 'running', '2024-01-01T00:00:00.000Z'));
    jobs.insert(stored('job_plain', 'work', 'running', '2024-01-01T00:00:01.000Z'));
    jobs.insert(stored('job_later', 'work', 'queued', '2024-01-01T00:00:02.000Z'));

    const queue = makeQueue();
    queue.register(RESUMABLE, gate.runner);
    assert.deepEqual(queue.recover(), { requeued: 2, interrupted: 1 });
    assert.equal(jobs.findById('job_plain')?.error?.code, 'interrupted');
    const resumed = await gate.started(0);
    assert.deepEqual(resumed.payload, { id: 'job_resumable' }, 'the interrupted resumable job runs first');
    assert.deepEqual(
      queue.status().queued.map((job) => job.job_id),
      ['job_later'],
    );
    resumed.outcome.resolve({});
    assert.equal((await queue.wait('job_resumable')).state, 'completed');
    (await gate.started(1)).outcome.resolve({});
    assert.equal((await queue.wait('job_later')).state, 'completed');
  });

  test('close puts a running job of a resumable kind back in the queue instead of cancelling it', async () => {
    const queue = makeQueue();
    queue.register(RESUMABLE, gate.runner);
    const job = queue.submit({ kind: RESUMABLE, ownerKeyId: null, payload: null });
    await gate.started(0);
    await queue.close();
    const stored = jobs.findById(job.id);
    assert.equal(stored?.state, 'queued');
    assert.equal(stored?.startedAt, null);
    assert.ok(!typesOf(job.id).includes('job.cancelled'));

    const next = makeQueue();
    next.register(RESUMABLE, gate.runner);
    assert.deepEqual(next.recover(), { requeued: 1, interrupted: 0 });
    (await gate.started(1)).outcome.resolve({});
    assert.equal((await next.wait(job.id)).state, 'completed');
  });

  test('submit refuses with queue_full when maxQueued jobs wait', async () => {
    const queue = makeQueue({ maxQueued: 2 });
    queue.submit({ kind: WORK, ownerKeyId: null, payload: null });
    queue.submit({ kind: WORK, ownerKeyId: null, payload: null });
    queue.submit({ kind: WORK, ownerKeyId: null, payload: null });
    const error = errorOf(() => queue.submit({ kind: WORK, ownerKeyId: null, payload: null }));
    assert.equal(error.statusCode, 503);
    assert.equal(error.code, 'queue_full');
    assert.deepEqual(error.details, { max_queued: 2 });
    await gate.started(0);
    assert.equal(queue.status().queued.length, 2);
    await queue.close();
  });

  test('the estimated wait is null without history and a number once a job of the kind completed', async () => {
    const queue = makeQueue();
    queue.submit({ kind: WORK, ownerKeyId: null, payload: 1 });
    queue.submit({ kind: WORK, ownerKeyId: null, payload: 2 });
    const first = await gate.started(0);
    assert.equal(queue.status().queued[0]?.estimated_wait_seconds, null);
    first.outcome.resolve({});

    await gate.started(1);
    queue.submit({ kind: WORK, ownerKeyId: null, payload: 3 });
    const wait = queue.status().queued[0]?.estimated_wait_seconds;
    assert.equal(typeof wait, 'number');
    assert.ok((wait as number) >= 0);
    assert.equal(queue.status().running[0]?.estimated_wait_seconds, 0);
    await queue.close();
  });

  test('close aborts running jobs, which end cancelled, and leaves queued ones for the next start', async () => {
    const queue = makeQueue();
    const running = queue.submit({ kind: WORK, ownerKeyId: null, payload: null });
    const waiting = queue.submit({ kind: WORK, ownerKeyId: null, payload: null });
    await gate.started(0);
    await queue.close();
    assert.equal(jobs.findById(running.id)?.state, 'cancelled');
    assert.equal(jobs.findById(waiting.id)?.state, 'queued');
    assert.equal(gate.calls.length, 1);
  });

  test('active lists the running jobs, then the queued ones in order, that a filter picks', async () => {
    const queue = makeQueue({ concurrency: 2 });
    const mine = queue.submit({ kind: WORK, ownerKeyId: 'key_1', payload: null });
    queue.submit({ kind: WORK, ownerKeyId: 'key_2', payload: null });
    const waiting = queue.submit({ kind: WORK, ownerKeyId: 'key_1', payload: null });
    await Promise.all([gate.started(0), gate.started(1)]);
    assert.deepEqual(
      queue.active((job) => job.ownerKeyId === 'key_1').map((job) => [job.id, job.state]),
      [
        [mine.id, 'running'],
        [waiting.id, 'queued'],
      ],
    );
    assert.deepEqual(
      queue.active((job) => job.kind === 'render'),
      [],
    );
    await queue.close();
  });
});
