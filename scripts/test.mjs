#!/usr/bin/env node
// `npm test`'s last step: every test file, several at a time, then the files whose tests time
// themselves (socket timeouts, stalls, piece limits) one at a time, so parallel load on a 2-core
// machine cannot push them past their bounds. Arguments name files to run instead of all.
// Run with `node --import tsx`: each test file's process inherits it. Files go to node:test's run()
// rather than `node --test`, which sorts them by name and so would not start the longest first.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { run } from 'node:test';
import { spec, tap } from 'node:test/reporters';

/** Files several at a time: measured on the 2-core CI machine, 3 beat 2 and 4. */
const CONCURRENCY = 3;
const TIMED =
  /\/(connections|voice-archive-limits|pathological-text|pathological-text-engines|rate-limits|websocket-limits|warm-engines|bad-input|wyoming-limits)\.test\.ts$/;

/**
 * The longest files (minutes each in CI), started first so none of them is left running alone at
 * the end while the other slots idle. Longest first, as measured on the 2-core machine (27 Nov 2026).
 */
const LONGEST = [
  'test/integration/features/cloning/cloning.test.ts',
  'test/browser/clone.test.ts',
  'test/integration/features/cloning/design.test.ts',
  'test/integration/features/transcription/transcribe-vad.test.ts',
  'test/integration/features/long-form/long-form-resume.test.ts',
  'test/integration/platform/engines/recognition-roundtrip.test.ts',
  'test/integration/platform/models/official-archives.test.ts',
  'test/integration/platform/store/storage-full.test.ts',
  'test/browser/voices.test.ts',
  'test/browser/design.test.ts',
  'test/browser/transcribe.test.ts',
  'test/integration/features/generation/generation.test.ts',
  'test/integration/cli/cli.test.ts',
  'test/integration/features/cloning/clone-neural.test.ts',
];

const requested = process.argv.slice(2);
const files = requested.length > 0 ? requested : longestFirst(testFiles('test'));

function longestFirst(all) {
  const rank = (file) => (LONGEST.includes(file) ? LONGEST.indexOf(file) : LONGEST.length);
  return [...all].sort((a, b) => rank(a) - rank(b));
}

function testFiles(dir) {
  return readdirSync(dir, { recursive: true })
    .map((name) => join(dir, String(name)))
    .filter((path) => path.endsWith('.test.ts'))
    .sort();
}

/** Runs one group of files in the order given; true when every test passed. */
async function runGroup(group, concurrency) {
  if (group.length === 0) return true;
  let passed = true;
  const report = run({ files: group, concurrency })
    .on('test:fail', () => {
      passed = false;
    })
    .compose(process.stdout.isTTY ? new spec() : tap);
  report.pipe(process.stdout, { end: false });
  await finished(report);
  return passed;
}

const parallel = await runGroup(
  files.filter((file) => !TIMED.test(file)),
  CONCURRENCY,
);
const serial = await runGroup(
  files.filter((file) => TIMED.test(file)),
  1,
);
process.exitCode = parallel && serial ? 0 : 1;
