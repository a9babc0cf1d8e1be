import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { zipSync } from 'fflate';
import { encodeWav } from '../../src/audio/wav.js';
import { VoiceArchive } from '../../src/services/voice-archive.js';
import { isUnsafeEntryName, packArchive, unpackArchive, type Manifest, type ManifestVoice } from '../../src/services/voice-archive-format.js';
import { openDatabase, type Db } from '../../src/store/database.js';
import { VoiceService } from '../../src/services/voices.js';
import { CategoryRepository } from '../../src/store/category-repository.js';
import { VoiceRepository, type VoiceRecord, type VoiceSampleRecord } from '../../src/store/voice-repository.js';
import type { VoiceInfo } from '../../src/engines/types.js';
import { removeDir, tempDir } from '../helpers/timbre.js';
import { AudioStore } from '../../src/store/audio-store.js';
import { createLog } from '../../src/log.js';

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
    samples: Array.from({ length: sampleCount }, (_, i) => ({ file: `samples/${id}/${i + 1}.wav`, duration: 0.5, sample_rate: 16000, transcript: i === 0 ? 'hello' : null })),
  };
}

function manifest(...voices: ManifestVoice[]): Manifest {
  return { format: 'timbre-voices', version: 1, exported_at: '2024-01-01T00:00:00.000Z', voices };
}

const codes = (zip: Uint8Array) => unpackArchive(zip).problems.map((problem) => problem.code);
const json = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

describe('voice archive format', () => {
  test('a packed archive unpacks to the same manifest, with sample audio measured from the files', () => {
    const written = manifest(voice('voice_a', 2));
    const zip = packArchive(written, new Map([['samples/voice_a/1.wav', wav(0.5)], ['samples/voice_a/2.wav', wav(0.25, 8000)]]));
    const { manifest: read, samples, problems } = unpackArchive(zip);
    assert.deepEqual(problems, []);
    assert.deepEqual(read, written);
    assert.equal(samples.get('samples/voice_a/2.wav')?.sampleRate, 8000);
    assert.equal(samples.get('samples/voice_a/2.wav')?.duration, 0.25);
  });

  test('entry names that could leave the folder are unsafe', () => {
    for (const name of ['../evil.wav', 'samples/../../x.wav', '/etc/passwd', 'C:/x.wav', 'samples\\voice_a\\1.wav', 'a\0b']) assert.ok(isUnsafeEntryName(name), name);
    for (const name of ['manifest.json', 'samples/voice_a/1.wav', 'notes/..hidden']) assert.ok(!isUnsafeEntryName(name), name);
  });

  test('an archive with a traversal entry is refused even when the manifest is fine', () => {
    const zip = zipSync({ 'manifest.json': json(manifest(voice('voice_a'))), 'samples/voice_a/1.wav': wav(0.5), '../evil.wav': wav(0.5) });
    assert.ok(codes(zip).includes('unsafe_entry'));
  });

  test('a sample that is not a WAV, or is missing, or is misnamed, is a problem', () => {
    assert.deepEqual(codes(zipSync({ 'manifest.json': json(manifest(voice('voice_a'))), 'samples/voice_a/1.wav': new TextEncoder().encode('not audio') })), ['sample_not_wav']);
    assert.deepEqual(codes(zipSync({ 'manifest.json': json(manifest(voice('voice_a'))) })), ['sample_missing']);
    const misnamed = voice('voice_a');
    misnamed.samples[0]!.file = 'samples/voice_b/1.wav';
    assert.deepEqual(codes(zipSync({ 'manifest.json': json(manifest(misnamed)), 'samples/voice_b/1.wav': wav(0.5) })), ['sample_name_invalid']);
  });

  test('a manifest of another format, with unknown fields or duplicate voices is refused', () => {
    assert.deepEqual(codes(zipSync({})), ['manifest_missing']);
    assert.deepEqual(codes(zipSync({ 'manifest.json': new TextEncoder().encode('{') })), ['manifest_invalid']);
    assert.ok(codes(zipSync({ 'manifest.json': json({ ...manifest(), format: 'other' }) })).includes('manifest_invalid'));
    assert.ok(codes(zipSync({ 'manifest.json': json({ ...manifest(), extra: true }) })).includes('manifest_invalid'));
    assert.ok(codes(zipSync({ 'manifest.json': json(manifest({ ...voice('preset:x'), samples: [] })) })).includes('manifest_invalid'));
    assert.deepEqual(codes(zipSync({ 'manifest.json': json(manifest({ ...voice('voice_a'), samples: [] }, { ...voice('voice_a'), samples: [] })) })), ['duplicate_voice']);
  });

  test('bytes that are not a zip are reported, not thrown', () => {
    assert.deepEqual(codes(new TextEncoder().encode('hello, not a zip at all, but long enough to look for a directory')), ['archive_unreadable']);
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

  const archiveOf = (...voices: ManifestVoice[]) =>
    packArchive(manifest(...voices), new Map(voices.flatMap((v) => v.samples.map((sample) => [sample.file, wav(0.5)] as [string, Uint8Array]))));

  test('export then import reproduces the voice, its samples and their bytes in another data directory', async () => {
    const source = await open();
    await new VoiceArchive(source.repository, source.dataDir).import(archiveOf(voice('voice_rt', 2)), 'skip');
    const exported = await new VoiceArchive(source.repository, source.dataDir).export(['voice_rt']);
    const target = await open();
    const result = await new VoiceArchive(target.repository, target.dataDir).import(exported, 'skip');
    assert.deepEqual(result, { imported: ['voice_rt'], skipped: [], renamed: {} });
    const strip = ({ createdAt, updatedAt, ...rest }: VoiceRecord) => rest;
    assert.deepEqual(strip(target.repository.findById('voice_rt')!), strip(source.repository.findById('voice_rt')!));
    const files = (dataDir: string, repo: VoiceRepository) => Promise.all(repo.samplesOf(['voice_rt']).map((sample) => readFile(join(dataDir, sample.path))));
    assert.deepEqual(await files(target.dataDir, target.repository), await files(source.dataDir, source.repository));
  });

  test('an existing id is skipped, or imported under a new id with rename', async () => {
    const { dataDir, repository } = await open();
    const archive = new VoiceArchive(repository, dataDir);
    await archive.import(archiveOf(voice('voice_twice')), 'skip');
    assert.deepEqual(await archive.import(archiveOf(voice('voice_twice')), 'skip'), { imported: [], skipped: ['voice_twice'], renamed: {} });
    const renamed = await archive.import(archiveOf(voice('voice_twice')), 'rename');
    const newId = renamed.renamed.voice_twice!;
    assert.match(newId, /^voice_[A-Za-z0-9_-]+$/);
    assert.deepEqual(renamed.imported, [newId]);
    assert.equal(repository.samplesOf([newId])[0]?.path, `voices/${newId}/1.wav`);
    assert.equal(archive.preview(archiveOf(voice('voice_twice'))).voices[0]?.conflict, 'id_exists');
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
    await assert.rejects(new VoiceArchive(repository, dataDir).import(archiveOf(voice('voice_first'), voice('voice_second')), 'skip'), /disk full/);
    assert.equal(repository.findById('voice_first'), undefined);
    assert.deepEqual(await readdir(join(dataDir, 'voices')), []);
  });
});

describe('preset sync', () => {
  const preset = (engine: string, name: string): VoiceInfo => ({ id: `${engine}:${name}`, engine, name, language: 'en-US', languages: ['en-US'], gender: null, sampleRate: 16000, license: 'MIT' });

  test('user fields survive a refresh; presets of an engine that is gone stay, unavailable; a failed engine keeps its presets', async () => {
    const dataDir = await tempDir('timbre-presets-');
    const db = openDatabase(dataDir);
    try {
      const repository = new VoiceRepository(db);
      const installed = [preset('a', 'one'), preset('b', 'two'), preset('c', 'three')];
      const service = new VoiceService({ voices: repository, categories: new CategoryRepository(db), dataDir, presets: async () => ({ voices: installed, failedEngines: [] }), refreshMs: 60_000, audio: new AudioStore(dataDir), log: createLog('silent') });
      await service.update('a:one', { tags: ['kept'], favorite: true });
      service.syncPresets([{ ...preset('a', 'one'), name: 'Renamed by the engine' }], ['c']);
      const one = repository.findById('a:one')!;
      assert.deepEqual([one.name, one.tags, one.favorite, one.available], ['Renamed by the engine', ['kept'], true, true]);
      assert.equal(repository.findById('b:two')?.available, false);
      assert.equal(repository.findById('c:three')?.available, true);
      service.syncPresets([preset('b', 'two')]);
      assert.equal(repository.findById('b:two')?.available, true);
    } finally {
      db.close();
      await removeDir(dataDir);
    }
  });
});
