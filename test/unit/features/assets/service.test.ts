import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { access, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { AssetRepository, AssetService } from '../../../../src/features/assets/index.js';
import { encodeWav } from '../../../../src/platform/audio/wav.js';
import { ApiError, EngineError } from '../../../../src/platform/errors.js';
import { createLog } from '../../../../src/platform/log.js';
import { openDatabase, type Db } from '../../../../src/platform/store/database.js';
import { removeDir, tempDir } from '../../../helpers/timbre.js';

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );
const wav = encodeWav({ samples: Float32Array.from({ length: 8000 }, (_, n) => 0.2 * Math.sin(n / 5)), sampleRate: 16000 });

describe('the assets service', () => {
  let dir: string;
  let db: Db;
  let repository: AssetRepository;
  let assets: AssetService;
  let received = 0;

  /** A file as an upload leaves it: somewhere the service may take it from. */
  async function upload(bytes: Buffer): Promise<string> {
    const path = join(dir, `received-${received++}`);
    await writeFile(path, bytes);
    return path;
  }

  before(async () => {
    dir = await tempDir();
    db = openDatabase(dir);
    repository = new AssetRepository(db);
    assets = new AssetService({ assets: repository, dataDir: dir, retentionDays: 30, log: createLog('silent') });
  });

  after(async () => {
    db.close();
    await removeDir(dir);
  });

  test('an imported file becomes an asset of its key, described and moved into the store', async () => {
    const received = await upload(wav);
    const asset = await assets.importFile(received, { origin: 'upload', originalName: 'take.wav' }, 'key_a');
    assert.deepEqual([asset.format, asset.sampleRate, asset.channels, asset.originalName], ['wav', 16000, 1, 'take.wav']);
    assert.ok(Math.abs((asset.duration ?? 0) - 0.5) < 0.01);
    assert.equal(asset.sha256, createHash('sha256').update(wav).digest('hex'));
    assert.equal(await exists(received), false, 'the received file is consumed');
    assert.equal(await exists(assets.absolutePath(asset)), true);
    assert.deepEqual(
      assets.list('key_a').map((listed) => listed.id),
      [asset.id],
    );
    assert.throws(
      () => assets.get(asset.id, 'key_b'),
      (error: unknown) => error instanceof ApiError && error.code === 'asset_not_found',
    );
    await assets.delete(asset.id, 'key_a');
    assert.equal(await exists(assets.absolutePath(asset)), false);
    assert.deepEqual(assets.list('key_a'), []);
  });

  test('a file that is not audio is refused and does not linger', async () => {
    const received = await upload(Buffer.from('not audio at all\n'.repeat(50)));
    await assert.rejects(
      assets.importFile(received, { origin: 'upload' }, 'key_a'),
      (error: unknown) => error instanceof EngineError && error.code === 'audio_unreadable',
    );
    assert.equal(await exists(received), false);
  });

  test('assets unused for the retention period are swept with their files; used ones stay', async () => {
    const old = await assets.importFile(await upload(wav), { origin: 'upload' }, 'key_a');
    const recent = await assets.importFile(await upload(wav), { origin: 'upload' }, 'key_a');
    repository.touch(old.id, new Date(Date.now() - 31 * 24 * 60 * 60 * 1000).toISOString());
    assert.equal(await assets.sweepExpired(), 1);
    assert.equal(await exists(assets.absolutePath(old)), false);
    assert.deepEqual(
      assets.list('key_a').map((asset) => asset.id),
      [recent.id],
    );
  });

  test('an expired asset whose stored path leaves the folder does not stop the sweep of the others', async () => {
    const broken = await assets.importFile(await upload(wav), { origin: 'upload' }, 'key_b');
    const expired = await assets.importFile(await upload(wav), { origin: 'upload' }, 'key_b');
    const longAgo = new Date(Date.now() - 31 * 24 * 60 * 60 * 1000).toISOString();
    db.prepare('UPDATE assets SET path = ? WHERE id = ?').run('assets/../timbre.db', broken.id);
    for (const asset of [broken, expired]) repository.touch(asset.id, longAgo);
    assert.equal(await assets.sweepExpired(), 1);
    assert.equal(await exists(assets.absolutePath(expired)), false);
    assert.equal(await exists(join(dir, 'timbre.db')), true, 'nothing outside the folder is touched');
  });

  test('a stored path that would leave the assets folder is never opened', () => {
    const asset = { ...assets.list('key_a')[0]!, path: 'assets/../timbre.db' };
    assert.throws(() => assets.absolutePath(asset), /outside/);
  });
});
