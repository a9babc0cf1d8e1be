// Black-box (the service as a process): the tour program runs as its own process against the service's URL.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { promisify } from 'node:util';
import { ESLint } from 'eslint';
import { REPO_ROOT } from '../../helpers/paths.js';
import { serverWithAdmin } from '../../helpers/timbre.js';

const run = promisify(execFile);
const TOUR = join(REPO_ROOT, 'examples/client-tour.ts');

interface TourResult {
  voice: string;
  speech_bytes: number;
  speech_duration: number;
  task_id: string;
  chunk_bytes: number;
  asset_id: string;
  transcript: string;
  blocks_before: number[];
  blocks_after: number[];
  version: number;
}

describe('the shipped typed client (timbre/client)', () => {
  const fixture = serverWithAdmin();

  test('the tour program compiles under strict TypeScript on its own and has no type assertions', async () => {
    const tsc = join(REPO_ROOT, 'node_modules/.bin/tsc');
    const flags = [
      '--noEmit',
      '--strict',
      '--module',
      'nodenext',
      '--moduleResolution',
      'nodenext',
      '--target',
      'es2022',
      '--lib',
      'es2023',
      '--types',
      'node',
    ];
    await run(tsc, [...flags, '--skipLibCheck', TOUR], { cwd: REPO_ROOT }).catch((error: { stdout: string }) => assert.fail(error.stdout));
    const eslint = new ESLint({
      cwd: REPO_ROOT,
      overrideConfig: { rules: { '@typescript-eslint/consistent-type-assertions': ['error', { assertionStyle: 'never' }] } },
    });
    const [report] = await eslint.lintFiles([TOUR]);
    assert.deepEqual(
      report?.messages.map((message) => `${message.line}: ${message.message}`),
      [],
    );
  });

  test('the tour lists voices, speaks into an ArrayBuffer, reads a chunk, transcribes an asset and saves the timeline it read', async () => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', TOUR], {
      cwd: REPO_ROOT,
      env: { ...process.env, TIMBRE_URL: fixture.server.url, TIMBRE_API_KEY: fixture.admin.key },
    });
    const tour: TourResult = JSON.parse(stdout);
    assert.ok(tour.speech_bytes > 44 + 16_000, `${tour.speech_bytes} bytes of speech`);
    assert.ok(tour.speech_duration > 1, `${tour.speech_duration} s of speech`);
    assert.match(tour.task_id, /^task_/);
    assert.ok(tour.chunk_bytes > 44 + 16_000, `${tour.chunk_bytes} bytes in chunk 0`);
    assert.match(tour.asset_id, /^asset_/);
    assert.match(tour.transcript, /\w{3}/, 'the transcript has words');
    assert.ok(tour.blocks_before.length >= 2, 'a block per sentence');
    assert.deepEqual(
      tour.blocks_after,
      tour.blocks_before.map((start) => start + 0.5),
    );
  });
});
