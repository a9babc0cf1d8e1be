import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  BASE_URL,
  catalog,
  CatalogError,
  DEFAULT_MODELS,
  entryProblems,
  spokenLanguages,
  findModel,
  TEST_CATALOG_ENV,
  type CatalogModel,
} from '../../../../src/platform/models/catalog.js';
import { removeDir, tempDir } from '../../../helpers/timbre.js';

const models = catalog({});

test('model names are unique and every default is in the catalog', () => {
  const names = models.map((model) => model.name);
  assert.equal(new Set(names).size, names.length);
  for (const name of DEFAULT_MODELS) assert.ok(names.includes(name), `${name} is a default but not in the catalog`);
  assert.deepEqual(DEFAULT_MODELS, ['silero-vad', 'kokoro-multi-lang-v1_0-int8', 'pocket-tts-int8', 'whisper-tiny.en', 'campplus-en-voxceleb']);
});

test('every built-in entry is sound: safe paths, official https archives, unique file names', () => {
  for (const model of models) {
    assert.deepEqual(entryProblems(model), [], model.name);
    assert.ok(model.archive.url.startsWith(BASE_URL), model.archive.url);
    assert.equal(new Set(model.files.map((file) => file.path)).size, model.files.length, model.name);
    assert.ok(model.languages.length > 0 && model.license.length > 0, model.name);
  }
});

test('a bare-file archive is its only file, with the same pins; a tarball names its root folder', () => {
  for (const model of models) {
    if (model.archive.url.endsWith('.tar.bz2')) {
      assert.ok(model.archive.rootDir, `${model.name} needs rootDir`);
      continue;
    }
    assert.equal(model.files.length, 1, model.name);
    const [file] = model.files;
    assert.equal(file!.path, model.archive.url.split('/').pop());
    assert.equal(file!.bytes, model.archive.bytes);
    assert.equal(file!.sha256, model.archive.sha256);
  }
});

test('Silero VAD is the official sherpa-onnx asset, and the upstream v5 file serves as well', () => {
  const silero = findModel('silero-vad', {});
  assert.equal(silero.archive.url, `${BASE_URL}asr-models/silero_vad.onnx`);
  assert.deepEqual([silero.archive.bytes, silero.archive.sha256], [643_854, '9e2449e1087496d8d4caba907f23e0bd3f78d91fa552479bb9c23ac09cbb1fd6']);
  assert.deepEqual(
    silero.files[0]!.alternatives?.map((pin) => pin.sha256),
    ['1a153a22f4509e292a94e67d6f9b85e8deb25b4988682b7e174c65279d8788e3'],
  );
  assert.equal(silero.sharedPath, 'asr');
});

test('Kokoro is pinned by the files inside, offers no Japanese, and needs lexicon-zh.txt for Chinese', () => {
  const kokoro = findModel('kokoro-multi-lang-v1_0-int8', {});
  assert.deepEqual([kokoro.archive.bytes, kokoro.archive.sha256], [null, null], 'the archive is re-uploaded under the same name');
  assert.ok(
    kokoro.files.every((file) => file.bytes !== null),
    'every required file has at least its size pinned',
  );
  assert.ok(!kokoro.languages.includes('ja'));
  assert.deepEqual(kokoro.languageFiles, { zh: ['lexicon-zh.txt'] });
  assert.deepEqual(
    spokenLanguages(kokoro, () => false),
    ['en-US', 'en-GB', 'es', 'fr', 'hi', 'it', 'pt-BR'],
  );
  assert.deepEqual(
    spokenLanguages(kokoro, (path) => path === 'lexicon-zh.txt'),
    kokoro.languages,
  );
  assert.match(findModel('campplus-en-voxceleb', {}).archive.url, /speaker-recongition-models\//);
});

test('entries with paths that could leave the models folder are refused', () => {
  const sound = findModel('silero-vad', {});
  const variants: Partial<CatalogModel>[] = [
    { name: '../etc' },
    { name: 'Upper/case' },
    { sharedPath: '../../etc' },
    { files: [{ path: '/etc/passwd', bytes: null, sha256: null }] },
    { files: [{ path: 'a/../../b', bytes: null, sha256: null }] },
    { archive: { ...sound.archive, rootDir: '..' } },
    { archive: { ...sound.archive, url: 'file:///etc/passwd' } },
    { files: [] },
  ];
  for (const variant of variants) assert.notDeepEqual(entryProblems({ ...sound, ...variant }), [], JSON.stringify(variant));
});

test('unknown names are refused with the list of known ones', () => {
  assert.throws(
    () => findModel('kokoro', {}),
    (error: Error) => error instanceof CatalogError && /Known models: silero-vad/.test(error.message),
  );
});

test('a test catalog adds entries, replaces built-in ones of the same name, and is validated like them', async () => {
  const dir = await tempDir();
  try {
    const file = join(dir, 'catalog.json');
    const extra = { ...findModel('silero-vad', {}), name: 'test-extra', archive: { url: 'http://127.0.0.1:1/x.onnx', bytes: null, sha256: null } };
    await writeFile(file, JSON.stringify([extra]));
    assert.equal(findModel('test-extra', { [TEST_CATALOG_ENV]: file }).archive.url, 'http://127.0.0.1:1/x.onnx');
    await writeFile(file, JSON.stringify([{ ...extra, name: 'silero-vad' }]));
    const replaced = catalog({ [TEST_CATALOG_ENV]: file });
    assert.equal(replaced.length, models.length);
    assert.equal(replaced.find((model) => model.name === 'silero-vad')?.archive.url, 'http://127.0.0.1:1/x.onnx');
    await writeFile(file, JSON.stringify([{ ...extra, sharedPath: '../x' }]));
    assert.throws(() => catalog({ [TEST_CATALOG_ENV]: file }), /sharedPath "..\/x" is not a safe relative path/);
  } finally {
    await removeDir(dir);
  }
});
