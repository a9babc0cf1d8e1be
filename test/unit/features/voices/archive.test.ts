import assert from 'node:assert/strict';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buffer } from 'node:stream/consumers';
import { after, before, describe, test } from 'node:test';
import { unzipSync, zipSync } from 'fflate';
import { encodeWav, parseWav, readWavInfo } from '../../../../src/platform/audio/wav.js';
import { VoiceArchive } from '../../../../src/features/voices/archive.js';
import { isUnsafeEntryName, packArchive, type Manifest, type ManifestVoice } from '../../../../src/features/voices/archive-format.js';
import { readArchive } from '../../../../src/features/voices/archive-reader.js';
import { openDatabase, type Db } from '../../../../src/platform/store/database.js';
import { VoiceService } from '../../../../src/features/voices/service.js';
import { CategoryRepository } from '../../../../src/features/voices/category-repository.js';
import { VoiceRepository, type VoiceRecord, type VoiceSampleRecord } from '../../../../src/features/voices/voice-repository.js';
import type { EngineId } from '../../../../src/platform/engines/engine-ids.js';
import type { VoiceInfo } from '../../../../src/platform/engines/types.js';
import { removeDir, tempDir } from '../../../helpers/timbre.js';
import { deflatedZeros, rawZip } from '../../../helpers/zips.js';
import { AudioStore } from '../../../../src/platform/store/audio-store.js';
import { KeptWrites } from '../../../../src/platform/store/kept-writes.js';
import { createLog } from '../../../../src/platform/log.js';

const LIMITS = { maxExpandedBytes: 1024 * 1024 * 1024 };

const wav = (seconds: number, sampleRate = 16000) =>
  encodeWav({ samples: Float32Array.from({ length: Math.round(seconds * sampleRate) }, (_, i) => Math.sin(i / 10) * 0.5), sampleRate });

function voice(id: string, sampleCount = 1): ManifestVoice {
  return {
    id,
    name: `Voice ${id}`,
    type: 'clone',
    engine: 'zipvoice',
    engine_voice: 'zipvoice:reference',
    language: 'en-US',
    languages: ['en-US'],
    gender: null,
    description: 'a test voice',
    tags: ['test'],
    settings: { speed: 1 },
    samples: Array.from({ length: sampleCount }, (_, i) => ({
      file: `samples/${id}/${i + 1}.wav`,
      duration: 0.5,
      sample_rate: 16000,
      transcript: i === 0 ? 'hello' : null,
    })),
  };
}

function manifest(...voices: ManifestVoice[]): Manifest {
  return { format: 'timbre-voices', version: 1, exported_at: '2024-01-01T00:00:00.000Z', voices };
}

const json = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

/** Scratch space: zips are read from files, as the service reads them. */
let scratch: string;
before(async () => {
  scratch = await tempDir('timbre-archive-scratch-');
});
after(() => removeDir(scratch));

let written = 0;
async function zipOnDisk(zip: Uint8Array): Promise<string> {
  const path = join(scratch, `${++written}.zip`);
  await writeFile(path, zip);
  return path;
}

/** Reads a zip as the service does, into a fresh work folder. */
async function read(zip: Uint8Array, limits = LIMITS) {
  const dir = await tempDir('timbre-archive-work-');
  try {
    return { ...(await readArchive(await zipOnDisk(zip), dir, limits)), files: await readdir(dir, { recursive: true }) };
  } finally {
    await removeDir(dir);
  }
}

const codes = async (zip: Uint8Array, limits = LIMITS) => (await read(zip, limits)).problems.map((problem) => problem.code);

/** A packed archive of voices whose samples are `wav(0.5)` files. */
async function packed(...voices: ManifestVoice[]): Promise<Buffer> {
  const files = new Map<string, string>();
  for (const sample of voices.flatMap((v) => v.samples)) {
    const path = join(scratch, `sample-${++written}.wav`);
    await writeFile(path, wav(0.5));
    files.set(sample.file, path);
  }
  return buffer(packArchive(manifest(...voices), files));
}

describe('voice archive format', () => {
  test('a packed archive reads back as the same manifest, with sample audio measured from the files', async () => {
    const written = manifest(voice('voice_a', 2));
    const files = new Map([
      ['samples/voice_a/1.wav', await zipOnDisk(wav(0.5))],
      ['samples/voice_a/2.wav', await zipOnDisk(wav(0.25, 8000))],
    ]);
    const zip = await buffer(packArchive(written, files));
    const { manifest: readBack, samples, problems } = await read(zip);
    assert.deepEqual(problems, []);
    assert.deepEqual(readBack, written);
    assert.equal(samples.get('samples/voice_a/2.wav')?.sampleRate, 8000);
    assert.equal(samples.get('samples/voice_a/2.wav')?.duration, 0.25);
    // Samples are stored as they are, the manifest deflated: any zip reader sees the same entries.
    const entries = unzipSync(zip);
    assert.deepEqual(Object.keys(entries), ['manifest.json', 'samples/voice_a/1.wav', 'samples/voice_a/2.wav']);
    assert.deepEqual(Buffer.from(entries['samples/voice_a/2.wav']!), wav(0.25, 8000));
  });

  test('entry names that could leave the folder are unsafe', () => {
    for (const name of ['../evil.wav', 'samples/../../x.wav', '/etc/passwd', 'C:/x.wav', 'samples\\voice_a\\1.wav', 'a\0b'])
      assert.ok(isUnsafeEntryName(name), name);
    for (const name of ['manifest.json', 'samples/voice_a/1.wav', 'notes/..hidden']) assert.ok(!isUnsafeEntryName(name), name);
  });

  test('an archive with a traversal or backslash entry is refused even when the manifest is fine, and nothing is extracted', async () => {
    for (const evil of ['../evil.wav', 'samples\\voice_a\\1.wav']) {
      const result = await read(zipSync({ 'manifest.json': json(manifest(voice('voice_a'))), 'samples/voice_a/1.wav': wav(0.5), [evil]: wav(0.5) }));
      assert.deepEqual(
        result.problems.map((problem) => problem.code),
        ['unsafe_entry'],
      );
      assert.deepEqual(result.files, []);
    }
  });

  test('a sample that is not a WAV, or is missing, or is misnamed, is a problem', async () => {
    assert.deepEqual(
      await codes(zipSync({ 'manifest.json': json(manifest(voice('voice_a'))), 'samples/voice_a/1.wav': new TextEncoder().encode('not audio') })),
      ['sample_not_wav'],
    );
    assert.deepEqual(await codes(zipSync({ 'manifest.json': json(manifest(voice('voice_a'))) })), ['sample_missing']);
    const misnamed = voice('voice_a');
    misnamed.samples[0]!.file = 'samples/voice_b/1.wav';
    assert.deepEqual(await codes(zipSync({ 'manifest.json': json(manifest(misnamed)), 'samples/voice_b/1.wav': wav(0.5) })), ['sample_name_invalid']);
  });

  test('a manifest of another format, with unknown fields, an engine this build does not know or duplicate voices is refused', async () => {
    assert.deepEqual(await codes(zipSync({})), ['manifest_missing']);
    assert.deepEqual(await codes(zipSync({ 'manifest.json': new TextEncoder().encode('{') })), ['manifest_invalid']);
    assert.ok((await codes(zipSync({ 'manifest.json': json({ ...manifest(), format: 'other' }) }))).includes('manifest_invalid'));
    assert.ok((await codes(zipSync({ 'manifest.json': json({ ...manifest(), extra: true }) }))).includes('manifest_invalid'));
    assert.ok((await codes(zipSync({ 'manifest.json': json(manifest({ ...voice('preset:x'), samples: [] })) }))).includes('manifest_invalid'));
    const unknownEngine = { ...voice('voice_a'), engine: 'no-such-engine', samples: [] };
    assert.deepEqual(await codes(zipSync({ 'manifest.json': json({ ...manifest(), voices: [unknownEngine] }) })), ['manifest_invalid']);
    assert.deepEqual(await codes(zipSync({ 'manifest.json': json(manifest({ ...voice('voice_a'), samples: [] }, { ...voice('voice_a'), samples: [] })) })), [
      'duplicate_voice',
    ]);
  });

  test('bytes that are not a zip are reported, not thrown', async () => {
    assert.deepEqual(await codes(new TextEncoder().encode('hello, not a zip at all, but long enough to look for a directory')), ['archive_unreadable']);
  });

  test('an entry inflating past the size it declares stops there: a forged 4 GiB zip bomb is refused after its first bytes', async () => {
    const bomb = rawZip([
      { name: 'manifest.json', data: Buffer.from(json(manifest(voice('voice_a')))), deflated: false, declaredSize: json(manifest(voice('voice_a'))).length },
      { name: 'samples/voice_a/1.wav', data: await deflatedZeros(4096), deflated: true, declaredSize: 100 },
    ]);
    assert.deepEqual(await codes(bomb), ['entry_size_mismatch']);
  });

  test('declared sizes, names and methods are checked before anything is inflated', async () => {
    const entry = (name: string, data: Buffer, declaredSize = data.length) => ({ name, data, deflated: false, declaredSize });
    const manifestEntry = entry('manifest.json', Buffer.from(json(manifest(voice('voice_a')))));
    // Honestly declared, but larger than a sample may be: refused without inflating a byte.
    const honest = rawZip([manifestEntry, { name: 'samples/voice_a/1.wav', data: await deflatedZeros(101), deflated: true, declaredSize: 101 * 1024 * 1024 }]);
    assert.deepEqual(await codes(honest), ['entry_too_large']);
    // Entries within their own limit but past the archive's together.
    const small = { maxExpandedBytes: 64 * 1024 };
    assert.deepEqual(await codes(rawZip([manifestEntry, entry('samples/voice_a/1.wav', wav(4))]), small), ['archive_too_large']);
    // A stored entry must declare its real size.
    assert.deepEqual(await codes(rawZip([manifestEntry, entry('samples/voice_a/1.wav', wav(0.5), 10)])), ['archive_unreadable']);
    // The same name twice is ambiguous.
    assert.deepEqual(await codes(rawZip([manifestEntry, entry('samples/voice_a/1.wav', wav(0.5)), entry('samples/voice_a/1.wav', wav(0.5))])), [
      'duplicate_entry',
    ]);
  });

  test('damaged deflate data is a problem of its entry', async () => {
    const manifestBytes = Buffer.from(json(manifest(voice('voice_a'))));
    const garbage = Buffer.alloc(2000, 0xff);
    const zip = rawZip([
      { name: 'manifest.json', data: manifestBytes, deflated: false, declaredSize: manifestBytes.length },
      { name: 'samples/voice_a/1.wav', data: garbage, deflated: true, declaredSize: 4000 },
    ]);
    assert.deepEqual(await codes(zip), ['entry_corrupt']);
  });
});

describe('WAV headers', () => {
  test('readWavInfo measures what parseWav decodes, from the header alone', async () => {
    const stereo = Buffer.from(wav(0.3, 22050));
    stereo.writeUInt16LE(2, 22); // two channels: half the frames
    for (const file of [wav(0.5), wav(0.25, 8000), encodeWav({ samples: new Float32Array(4410), sampleRate: 44100 }, 'float32'), stereo]) {
      const info = await readWavInfo(await zipOnDisk(file));
      const pcm = parseWav(file);
      assert.deepEqual([info.frames, info.sampleRate], [pcm.samples.length, pcm.sampleRate]);
    }
  });

  test('a streaming placeholder size ends with the file; an unknown encoding or no data chunk is an error', async () => {
    const streamed = Buffer.from(wav(0.5));
    streamed.writeUInt32LE(0xffffffff, 40);
    assert.equal((await readWavInfo(await zipOnDisk(streamed))).frames, 8000);
    const adpcm = Buffer.from(wav(0.5));
    adpcm.writeUInt16LE(2, 20);
    await assert.rejects(readWavInfo(await zipOnDisk(adpcm)), /unsupported WAV encoding/);
    await assert.rejects(readWavInfo(await zipOnDisk(Buffer.from(wav(0.5)).subarray(0, 36))), /no data chunk/);
  });
});

describe('voice archive import and export', () => {
  const opened: { dataDir: string; db: Db }[] = [];
  const open = async () => {
    const dataDir = await tempDir('timbre-archive-');
    const db = openDatabase(dataDir);
    opened.push({ dataDir, db });
    return { dataDir, db, repository: new VoiceRepository(db) };
  };
  after(async () => {
    for (const { db } of opened) db.close();
    await Promise.all(opened.map(({ dataDir }) => removeDir(dataDir)));
  });

  const archiveOf = async (...voices: ManifestVoice[]) => zipOnDisk(await packed(...voices));

  test('export then import reproduces the voice, its samples and their bytes in another data directory', async () => {
    const source = await open();
    await new VoiceArchive(source.repository, source.dataDir, LIMITS).import(await archiveOf(voice('voice_rt', 2)), 'skip');
    const exported = await zipOnDisk(await buffer(await new VoiceArchive(source.repository, source.dataDir, LIMITS).export(['voice_rt'])));
    const target = await open();
    const result = await new VoiceArchive(target.repository, target.dataDir, LIMITS).import(exported, 'skip');
    assert.deepEqual(result, { imported: ['voice_rt'], skipped: [], renamed: {} });
    const strip = ({ createdAt, updatedAt, ...rest }: VoiceRecord) => rest;
    assert.deepEqual(strip(target.repository.findById('voice_rt')!), strip(source.repository.findById('voice_rt')!));
    const files = (dataDir: string, repo: VoiceRepository) => Promise.all(repo.samplesOf(['voice_rt']).map((sample) => readFile(join(dataDir, sample.path))));
    assert.deepEqual(await files(target.dataDir, target.repository), await files(source.dataDir, source.repository));
    assert.deepEqual(await readdir(join(target.dataDir, 'voices')), ['voice_rt'], 'no work folder is left');
  });

  test('an existing id is skipped, or imported under a new id with rename', async () => {
    const { dataDir, repository } = await open();
    const archive = new VoiceArchive(repository, dataDir, LIMITS);
    await archive.import(await archiveOf(voice('voice_twice')), 'skip');
    assert.deepEqual(await archive.import(await archiveOf(voice('voice_twice')), 'skip'), { imported: [], skipped: ['voice_twice'], renamed: {} });
    const renamed = await archive.import(await archiveOf(voice('voice_twice')), 'rename');
    const newId = renamed.renamed.voice_twice!;
    assert.match(newId, /^voice_[A-Za-z0-9_-]+$/);
    assert.deepEqual(renamed.imported, [newId]);
    assert.equal(repository.samplesOf([newId])[0]?.path, `voices/${newId}/1.wav`);
    assert.equal((await archive.preview(await archiveOf(voice('voice_twice')))).voices[0]?.conflict, 'id_exists');
  });

  test('a failure while storing the rows leaves no files and no rows behind', async () => {
    const { dataDir, db } = await open();
    class FailingRepository extends VoiceRepository {
      override insert(record: VoiceRecord, samples: VoiceSampleRecord[]): void {
        super.insert(record, samples);
        if (record.id === 'voice_second') throw new Error('disk full');
      }
    }
    const repository = new FailingRepository(db);
    await assert.rejects(
      new VoiceArchive(repository, dataDir, LIMITS).import(await archiveOf(voice('voice_first'), voice('voice_second')), 'skip'),
      /disk full/,
    );
    assert.equal(repository.findById('voice_first'), undefined);
    assert.deepEqual(await readdir(join(dataDir, 'voices')), []);
  });

  test('an archive with a problem writes nothing, and its extracted files go', async () => {
    const { dataDir, repository } = await open();
    const good = voice('voice_good');
    const broken = zipSync({
      'manifest.json': json(manifest(good, voice('voice_bad'))),
      'samples/voice_good/1.wav': wav(0.5),
      'samples/voice_bad/1.wav': new TextEncoder().encode('noise'),
    });
    await assert.rejects(
      new VoiceArchive(repository, dataDir, LIMITS).import(await zipOnDisk(broken), 'skip'),
      (error: Error & { code?: string }) => error.code === 'archive_invalid',
    );
    assert.equal(repository.findById('voice_good'), undefined);
    assert.deepEqual(await readdir(join(dataDir, 'voices')), []);
  });
});

describe('preset sync', () => {
  const preset = (engine: EngineId, name: string): VoiceInfo => ({
    id: `${engine}:${name}`,
    engine,
    name,
    language: 'en-US',
    languages: ['en-US'],
    gender: null,
    sampleRate: 16000,
    license: 'MIT',
  });

  test('user fields survive a refresh; presets of an engine that is gone stay, unavailable; a failed engine keeps its presets', async () => {
    const dataDir = await tempDir('timbre-presets-');
    const db = openDatabase(dataDir);
    try {
      const repository = new VoiceRepository(db);
      const installed = [preset('pico', 'one'), preset('flite', 'two'), preset('espeak', 'three')];
      const service = new VoiceService({
        voices: repository,
        categories: new CategoryRepository(db),
        dataDir,
        presets: async () => ({ voices: installed, failedEngines: [] }),
        refreshMs: 60_000,
        enginesVersion: () => Promise.resolve(''),
        audio: new AudioStore(dataDir),
        kept: new KeptWrites(createLog('silent')),
        archiveLimits: LIMITS,
      });
      await service.update('pico:one', { tags: ['kept'], favorite: true });
      service.syncPresets([{ ...preset('pico', 'one'), name: 'Renamed by the engine' }], ['espeak']);
      const one = repository.findById('pico:one')!;
      assert.deepEqual([one.name, one.tags, one.favorite, one.available], ['Renamed by the engine', ['kept'], true, true]);
      assert.equal(repository.findById('flite:two')?.available, false);
      assert.equal(repository.findById('espeak:three')?.available, true);
      service.syncPresets([preset('flite', 'two')]);
      assert.equal(repository.findById('flite:two')?.available, true);
    } finally {
      db.close();
      await removeDir(dataDir);
    }
  });
});
