import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { isInside, resolveInside, writeAtomically } from '../../../../src/platform/util/files.js';

describe('files under a root', () => {
  test('a path is inside its root only strictly below it', () => {
    assert.equal(isInside('/data/audio/a.wav', '/data/audio'), true);
    assert.equal(isInside('/data/audio/sub/a.wav', '/data/audio'), true);
    assert.equal(isInside('/data/audio', '/data/audio'), false);
    assert.equal(isInside('/data/audio-other/a.wav', '/data/audio'), false, 'a sibling sharing the prefix');
    assert.equal(isInside('/data/a.wav', '/data/audio'), false);
    assert.equal(isInside('/data/audio/..x/a.wav', '/data/audio'), true, 'a name starting with two dots is still inside');
  });

  test('a stored path that climbs out of its root is refused', () => {
    assert.equal(resolveInside('/data/audio', '/data', 'audio/task_1.wav'), '/data/audio/task_1.wav');
    assert.throws(() => resolveInside('/data/audio', '/data', 'audio/../timbre.db'), /outside/);
    assert.throws(() => resolveInside('/data/audio', '/data', '/etc/passwd'), /outside/);
    assert.throws(() => resolveInside('/data/audio', '/data', 'audio'), /outside/);
  });
});

describe('atomic writes', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'timbre-files-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test('the file appears complete under its name and nothing else is left', async () => {
    await writeAtomically(join(dir, 'out.bin'), (temp) => writeFile(temp, 'complete'));
    assert.equal(await readFile(join(dir, 'out.bin'), 'utf8'), 'complete');
    assert.deepEqual(await readdir(dir), ['out.bin']);
  });

  test('a write that fails halfway leaves neither the file nor its temporary', async () => {
    const failure = new Error('the disk went away');
    await assert.rejects(
      writeAtomically(join(dir, 'half.bin'), async (temp) => {
        await writeFile(temp, 'half');
        throw failure;
      }),
      failure,
    );
    assert.deepEqual(await readdir(dir), ['out.bin']);
  });
});
