import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { voicesOnPath } from '../../../../src/platform/engines/festival-voice-path.js';

const run = promisify(execFile);

test('the voices found on the voice path are the ones festival itself lists', async () => {
  const { stdout } = await run('festival', ['-b', '(print (voice.list))']);
  const listed = (/\(([^()]*)\)/.exec(stdout)?.[1] ?? '').split(/\s+/).filter(Boolean);
  assert.ok(listed.length > 0, stdout);
  assert.deepEqual((await voicesOnPath()).sort(), listed.sort());
});

test('a voice is named by its proclamation, or else by its directory; dotted, incomplete and commented-out ones are not voices', async () => {
  const path = await mkdtemp(join(tmpdir(), 'timbre-festvox-'));
  const voice = async (language: string, dir: string, definition?: string) => {
    await mkdir(join(path, language, dir, 'festvox'), { recursive: true });
    if (definition !== undefined) await writeFile(join(path, language, dir, 'festvox', `${dir}.scm`), definition);
  };
  try {
    await voice('english', 'kal_diphone', "(define (voice_kal_diphone) t)\n(proclaim_voice\n 'kal_diphone\n '((language english)))\n");
    await voice('english', 'old_style', '(define (voice_old_style) t)\n');
    await voice('us', 'renamed', ";; (proclaim_voice 'commented_out '())\n(proclaim_voice 'cmu_us_new '((language english)))\n");
    await voice('us', 'no_definition');
    await voice('us', 'backup.old', "(proclaim_voice 'backup '())\n");
    await writeFile(join(path, 'README'), 'not a language directory');
    assert.deepEqual(await voicesOnPath(path), ['kal_diphone', 'old_style', 'cmu_us_new']);
    assert.deepEqual(await voicesOnPath(join(path, 'missing')), []);
  } finally {
    await rm(path, { recursive: true, force: true });
  }
});
