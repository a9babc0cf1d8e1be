import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { durationOf, rms } from '../../../../src/platform/audio/pcm.js';
import { parseWav } from '../../../../src/platform/audio/wav.js';
import { createFestivalSynthesizer, faultOnText, festivalEngine, pieceCommand, startFestival } from '../../../../src/platform/engines/festival.js';
import { FestivalPool } from '../../../../src/platform/engines/festival-session.js';
import { createFliteSynthesizer, fliteEngine } from '../../../../src/platform/engines/flite.js';
import type { JobContext, SynthesisResult, Synthesizer, VoiceInfo } from '../../../../src/platform/engines/types.js';
import { EngineError } from '../../../../src/platform/errors.js';

/**
 * Flite through its library and Festival as running processes: what keeping them warm must not
 * change (many calls, voice switches, speed, timings) and what it adds (errors and cancellations
 * that end one piece only, processes that end with their owner).
 */

const TEXT = 'The quick brown fox jumps over the lazy dog. It was not amused, and said so twice!';
const tempRoot = await mkdtemp(join(tmpdir(), 'timbre-warm-test-'));
after(() => rm(tempRoot, { recursive: true, force: true }));

function context(signal = new AbortController().signal, progress: JobContext['progress'] = () => {}): JobContext {
  return { signal, progress };
}

/** Audible, at the expected rate, its timings ordered and inside the audio. */
function assertSpoken(result: SynthesisResult, sampleRate: number): void {
  assert.equal(result.pcm.sampleRate, sampleRate);
  assert.ok(rms(result.pcm.samples) > 0.01, 'silent');
  assert.ok((result.words?.length ?? 0) + (result.phonemes?.length ?? 0) > 0, 'no timings');
  const duration = durationOf(result.pcm);
  // Words and phonemes are each in order through the audio.
  for (const timings of [result.words ?? [], result.phonemes ?? []]) {
    let previous = 0;
    for (const timing of timings) {
      assert.ok(
        timing.start >= previous - 1e-6 && timing.start <= timing.end && timing.end <= duration + 0.01,
        `timing ${JSON.stringify(timing)} in ${duration} s`,
      );
      previous = timing.start;
    }
  }
}

/** Festival processes that are children of this one, from /proc (spawning `ps` would be one). */
function festivalChildren(): number[] {
  const children = readdirSync('/proc/self/task').flatMap((task) => readFileSync(`/proc/self/task/${task}/children`, 'utf8').split(' ').filter(Boolean));
  return children.filter((pid) => commandOf(Number(pid)) === 'festival').map(Number);
}

function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return ''; // exited meanwhile
  }
}

/** CPU time a process has used, in clock ticks (utime + stime of /proc/PID/stat): it grows only while festival works. */
function cpuTicks(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
    .replace(/^.*\) /s, '')
    .split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

/** Gone, or a zombie waiting for a parent that does not reap (it runs nothing any more). */
function ended(pid: number): boolean {
  try {
    return /^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return !existsSync(`/proc/${pid}`);
  }
}

const flite = await fliteEngine.probe();

describe('flite through its library', { skip: flite.available ? false : flite.reason }, () => {
  const synthesizer: Synthesizer = createFliteSynthesizer({ tempRoot });
  after(() => synthesizer.dispose?.());

  test('many calls in a row keep working, switching voices', async () => {
    const voices = (await synthesizer.listVoices()).map((voice) => voice.id);
    assert.ok(voices.length >= 2);
    for (let call = 0; call < 40; call++) {
      const voice = voices[call % voices.length] ?? '';
      assertSpoken(await synthesizer.synthesize({ text: `Call number ${call + 1}. ${TEXT}`, voice }, context()), 16_000);
    }
  });

  test('speed 2 is shorter than 1, and no speed or pitch stays with the voice for the next request', async () => {
    const request = { text: TEXT, voice: 'flite:kal16' };
    const normal = await synthesizer.synthesize(request, context());
    const fast = await synthesizer.synthesize({ ...request, speed: 2, pitch: 2 }, context());
    const again = await synthesizer.synthesize(request, context());
    assert.ok(durationOf(fast.pcm) < 0.75 * durationOf(normal.pcm), `${durationOf(fast.pcm)} s vs ${durationOf(normal.pcm)} s`);
    assert.deepEqual(again.phonemes, normal.phonemes);
    assert.deepEqual(again.pcm.samples, normal.pcm.samples); // a diphone voice is deterministic
  });

  test('the library is released by dispose() and loaded again by the next call', async () => {
    const own = createFliteSynthesizer({ tempRoot });
    assertSpoken(await own.synthesize({ text: TEXT, voice: 'flite:slt' }, context()), 16_000);
    await own.dispose?.();
    assertSpoken(await own.synthesize({ text: TEXT, voice: 'flite:rms' }, context()), 16_000);
    await own.dispose?.();
  });
});

const festival = await festivalEngine.probe();
const HTS = 'festival:cmu_us_slt_arctic_hts';

describe('festival kept running', { skip: festival.available ? false : festival.reason }, () => {
  const synthesizer: Synthesizer = createFestivalSynthesizer({ tempRoot, maxProcesses: 2 });
  after(() => synthesizer.dispose?.());

  test('many calls in a row keep working, switching voices; dispose() ends every process', async () => {
    const voices = (await synthesizer.listVoices()).filter((voice) => voice.language.startsWith('en')).slice(0, 4);
    assert.ok(voices.length >= 2);
    for (let call = 0; call < 16; call++) {
      const voice = voices[call % voices.length]!;
      assertSpoken(await synthesizer.synthesize({ text: `Call number ${call + 1}. ${TEXT}`, voice: voice.id }, context()), voice.sampleRate);
    }
    await synthesizer.dispose?.();
    assert.deepEqual(festivalChildren(), []);
  });

  test('speed 2 is shorter than 1, and no speed or pitch stays for the next request', async () => {
    for (const voice of ['festival:kal_diphone', HTS]) {
      const normal = await synthesizer.synthesize({ text: TEXT, voice }, context());
      const fast = await synthesizer.synthesize({ text: TEXT, voice, speed: 2, pitch: 0.6 }, context());
      const again = await synthesizer.synthesize({ text: TEXT, voice }, context());
      assert.ok(durationOf(fast.pcm) < 0.75 * durationOf(normal.pcm), `${voice}: ${durationOf(fast.pcm)} s vs ${durationOf(normal.pcm)} s`);
      assert.deepEqual(again.words, normal.words);
      assert.deepEqual(again.pcm.samples, normal.pcm.samples);
    }
  });

  test('a pool keeps one process per voice, at most its maximum, least recently used closed first', async () => {
    const others = festivalChildren();
    const pool = new FestivalPool(startFestival, 2);
    const say = (voice: string) => pool.run(voice, '(+ 1 2)', context().signal);
    await say('kal_diphone');
    const [kal] = pool.pids();
    await say('ked_diphone');
    await say('kal_diphone');
    assert.ok(pool.pids().includes(kal ?? 0), 'kal kept its process');
    await say('cmu_us_slt_arctic_hts'); // closes ked, the least recently used
    assert.equal(pool.pids().length, 2);
    assert.ok(pool.pids().includes(kal ?? 0));
    await pool.dispose();
    assert.deepEqual(festivalChildren(), others);
  });

  test('a SIOD error fails only its piece: the same process then speaks the next', async () => {
    const pool = new FestivalPool(startFestival, 1);
    const dir = await mkdtemp(join(tempRoot, 'siod-'));
    const files = (name: string) => ({ txt: join(dir, `${name}.txt`), wav: join(dir, `${name}.wav`), tsv: join(dir, `${name}.tsv`) });
    await pool.run('kal_diphone', '(+ 1 2)', context().signal);
    const [pid] = pool.pids();
    await assert.rejects(
      pool.run('kal_diphone', pieceCommand(files('missing'), 1, 1), context().signal),
      (error) => error instanceof EngineError && error.code === 'engine_failed' && /SIOD ERROR/.test(error.message),
    );
    await assert.rejects(pool.run('kal_diphone', '(car 5)', context().signal), (error) => error instanceof EngineError && error.code === 'engine_failed');
    await writeFile(files('next').txt, TEXT);
    await pool.run('kal_diphone', pieceCommand(files('next'), 1, 1), context().signal);
    assert.deepEqual(pool.pids(), [pid]);
    assert.ok(parseWav(await readFile(files('next').wav)).samples.length > 0);
    await pool.dispose();
  });

  test('a diphone voice says a text with a sentence of punctuation alone (which crashed it), and the process lives on', async () => {
    const pool = new FestivalPool(startFestival, 1);
    const dir = await mkdtemp(join(tempRoot, 'empty-'));
    const files = (name: string) => ({ txt: join(dir, `${name}.txt`), wav: join(dir, `${name}.wav`), tsv: join(dir, `${name}.tsv`) });
    for (const voice of ['kal_diphone', 'ked_diphone']) {
      // festival cuts utterances at sentence ends: `!` after `0"?  ` is an utterance with no segments.
      await writeFile(files(`${voice}-mixed`).txt, '0"?  !');
      await pool.run(voice, pieceCommand(files(`${voice}-mixed`), 1, 1), context().signal);
      assert.ok(parseWav(await readFile(files(`${voice}-mixed`).wav)).samples.length > 0, voice);
      // Nothing at all to say: no WAV, and no crash.
      await writeFile(files(`${voice}-quote`).txt, '"');
      await pool.run(voice, pieceCommand(files(`${voice}-quote`), 1, 1), context().signal);
      assert.equal(existsSync(files(`${voice}-quote`).wav), false, voice);
    }
    await pool.dispose();
  });

  test('a festival that faults on a piece is replaced, and the piece is refused as text the voice cannot say', async () => {
    const pool = new FestivalPool(startFestival, 1);
    await pool.run('kal_diphone', '(+ 1 2)', context().signal);
    const [pid] = pool.pids();
    // What a crash inside festival looks like from here: the process ends with SIGSEGV mid-command.
    const crashed = await pool.run('kal_diphone', '(system "kill -SEGV $PPID")', context().signal).then(
      () => assert.fail('the command should have failed'),
      (error: unknown) => error,
    );
    const kal: VoiceInfo = {
      id: 'festival:kal_diphone',
      engine: 'festival',
      name: 'Kal',
      language: 'en-US',
      languages: ['en-US'],
      gender: 'male',
      sampleRate: 16000,
      license: 'BSD',
    };
    const piece = { voice: kal, text: 'Some text.' };
    const refused = faultOnText(crashed, piece);
    assert.ok(refused instanceof EngineError);
    assert.equal(refused.code, 'text_not_speakable');
    assert.match(refused.message, /crashed \(SIGSEGV\).*festival:kal_diphone/);
    assert.deepEqual(refused.details, { voice: 'festival:kal_diphone', language: 'en-US', signal: 'SIGSEGV', piece: 'Some text.' });
    // A kill (a cancellation, a piece timeout) stays what it was.
    const killed = new EngineError('engine_failed', 'festival stopped (SIGKILL)', { signal: 'SIGKILL' });
    assert.equal(faultOnText(killed, piece), killed);
    await pool.run('kal_diphone', '(+ 1 2)', context().signal);
    assert.notDeepEqual(pool.pids(), [pid]);
    assert.equal(pool.pids().length, 1);
    await pool.dispose();
  });

  test('cancelling a piece kills its process at once; the next call starts a fresh one', async () => {
    const own = createFestivalSynthesizer({ tempRoot });
    const others = festivalChildren();
    await own.synthesize({ text: 'Warm up.', voice: HTS }, context());
    const [pid, ...more] = festivalChildren().filter((child) => !others.includes(child));
    assert.ok(pid && more.length === 0);
    const idle = cpuTicks(pid);
    const controller = new AbortController();
    const reason = new Error('cancelled by the test');
    // Hundreds of digits read one by one keep the HTS voice busy for many seconds.
    const running = own.synthesize({ text: '9'.repeat(600), voice: HTS }, context(controller.signal));
    while (cpuTicks(pid) === idle) await new Promise((resolve) => setTimeout(resolve, 10));
    controller.abort(reason);
    await assert.rejects(running, (error) => error === reason);
    assert.ok(!festivalChildren().includes(pid), `festival ${pid} still runs`);
    assertSpoken(await own.synthesize({ text: TEXT, voice: HTS }, context()), 32_000);
    await own.dispose?.();
  });

  test('festival ends with the process that started it, even when that one is killed', { timeout: 60_000 }, async () => {
    const script = [
      `import { startFestival } from ${JSON.stringify(new URL('../../../../src/platform/engines/festival.ts', import.meta.url).href)};`,
      `const festival = await startFestival('kal_diphone', new AbortController().signal);`,
      `console.log(festival.pid);`,
      `setInterval(() => {}, 1000);`,
    ].join('\n');
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    const pid = await new Promise<number>((resolve) => child.stdout.once('data', (chunk: Buffer) => resolve(Number(String(chunk).trim()))));
    assert.ok(pid > 0 && !ended(pid));
    child.kill('SIGKILL');
    while (!ended(pid)) await new Promise((resolve) => setTimeout(resolve, 50));
  });
});
