import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFile, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { BASE_URL, catalog, type CatalogModel, type FilePin } from '../../src/platform/models/catalog.js';
import { buildKitten } from './stand-in-kitten.js';
import { buildKokoro, buildPocket, buildWhisper, DEBIAN_ESPEAK_DATA, SHARED_MODELS, speakerEmbeddingModel } from './stand-in-models.js';
import { buildMoonshine } from './stand-in-moonshine.js';
import { k2fsaVadModel } from './stand-in-vad.js';
import { buildVits } from './stand-in-vits.js';
import { buildZipVoice } from './stand-in-zipvoice.js';

/**
 * A loopback mirror of sherpa-onnx's release assets, built from stand-in models but laid out as
 * each official export is (root folder, file names, espeak-ng-data/, lexicons, dict/, test_wavs/,
 * README and LICENSE), from the export workflows in sherpa-onnx's .github/workflows. The layouts
 * are written here, independently of the catalog, so an install that succeeds shows that the
 * catalog matches what the real archives hold.
 */

const exec = promisify(execFile);

interface OfficialAsset {
  /** The release path under BASE_URL, e.g. `tts-models/kitten-nano-en-v0_2-fp16.tar.bz2`. */
  path: string;
  /** Writes the archive's folder (for a `.tar.bz2`) or, for a bare file, returns its bytes. */
  build: (dir: string) => Promise<void | Buffer>;
}

const text = (dir: string, files: Record<string, string>) => Promise.all(Object.entries(files).map(([name, body]) => writeFile(join(dir, name), body)));
const readme = { 'README.md': 'Stand-in for a sherpa-onnx release archive\n', LICENSE: 'Stand-in license\n' };
const espeakData = (dir: string) => exec('cp', ['-a', DEBIAN_ESPEAK_DATA, join(dir, 'espeak-ng-data')]);
const testWavs = async (dir: string) => {
  await mkdir(join(dir, 'test_wavs'));
  await copyFile(join(SHARED_MODELS, 'pocket-tts/reference/jfk.wav'), join(dir, 'test_wavs/0.wav'));
};

/** Every asset the catalog downloads, keyed by the catalog model that uses it. */
const ASSETS: Record<string, OfficialAsset[]> = {
  'silero-vad': [{ path: 'asr-models/silero_vad.onnx', build: async () => k2fsaVadModel() }],
  'kokoro-multi-lang-v1_0-int8': [
    {
      path: 'tts-models/kokoro-int8-multi-lang-v1_0.tar.bz2',
      build: async (dir) => {
        await buildKokoro(dir, { lexiconZh: true, espeakData: true });
        await mkdir(join(dir, 'dict'));
        await text(dir, { ...readme, 'lexicon-us-en.txt': 'hello h e l o\n', 'lexicon-gb-en.txt': 'hello h e l o\n' });
        await text(dir, { 'date-zh.fst': 'fst', 'number-zh.fst': 'fst', 'phone-zh.fst': 'fst', 'dict/jieba.dict.utf8': '你好 10 l\n' });
      },
    },
  ],
  'pocket-tts-int8': [
    {
      path: 'tts-models/sherpa-onnx-pocket-tts-int8-2026-01-26.tar.bz2',
      build: async (dir) => {
        await buildPocket(dir);
        await testWavs(dir);
        await text(dir, readme);
      },
    },
  ],
  'kitten-nano-en-v0_2-fp16': [
    {
      path: 'tts-models/kitten-nano-en-v0_2-fp16.tar.bz2',
      build: async (dir) => void (await buildKitten(dir), await espeakData(dir), await text(dir, readme)),
    },
  ],
  'zipvoice-distill-int8-zh-en-emilia': [
    {
      path: 'tts-models/sherpa-onnx-zipvoice-distill-int8-zh-en-emilia.tar.bz2',
      build: async (dir) => {
        await buildZipVoice(dir);
        // The vocoder is a release asset of its own (below), not part of the archive.
        await rename(join(dir, 'vocos_24khz.onnx'), join(dir, '..', 'vocos_24khz.onnx'));
        await espeakData(dir);
        await testWavs(dir);
        await text(dir, readme);
      },
    },
    { path: 'vocoder-models/vocos_24khz.onnx', build: async (dir) => readFile(join(dir, 'vocos_24khz.onnx')) },
  ],
  'piper-en-us-lessac-medium': [
    {
      path: 'tts-models/vits-piper-en_US-lessac-medium.tar.bz2',
      build: async (dir) => {
        await buildVits(dir, { name: 'en_US-lessac-medium' });
        await espeakData(dir);
        await text(dir, { 'en_US-lessac-medium.onnx.json': '{"audio":{"sample_rate":22050}}\n', MODEL_CARD: 'Stand-in model card\n' });
      },
    },
  ],
  'whisper-tiny.en': [
    {
      path: 'asr-models/sherpa-onnx-whisper-tiny.en.tar.bz2',
      build: async (dir) => {
        await buildWhisper(dir);
        await testWavs(dir);
        await text(dir, { 'test_wavs/trans.txt': 'And so my fellow Americans\n' });
      },
    },
  ],
  'moonshine-tiny-en-int8': [
    {
      path: 'asr-models/sherpa-onnx-moonshine-tiny-en-int8.tar.bz2',
      build: async (dir) => void (await buildMoonshine(dir), await testWavs(dir), await text(dir, readme)),
    },
  ],
  'campplus-en-voxceleb': [
    {
      path: 'speaker-recongition-models/3dspeaker_speech_campplus_sv_en_voxceleb_16k.onnx',
      build: async () => speakerEmbeddingModel({ metadata: { framework: '3d-speaker', feature_normalize_type: '' } }),
    },
  ],
  'wespeaker-resnet34-en': [{ path: 'speaker-recongition-models/wespeaker_en_voxceleb_resnet34.onnx', build: async () => speakerEmbeddingModel() }],
};

export const MIRRORED_MODELS = Object.keys(ASSETS);

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** The pin a stand-in file gets where the real catalog has one of the same kind. */
function repin(real: FilePin, data: Buffer): FilePin {
  return { bytes: real.bytes === null ? null : data.length, sha256: real.sha256 === null ? null : sha256(data) };
}

/** Builds every asset into `<root>/served/<release path>`, keeping each archive's folder in `<root>/layouts`. */
async function buildAssets(root: string): Promise<void> {
  for (const [name, assets] of Object.entries(ASSETS)) {
    for (const asset of assets) {
      const served = join(root, 'served', asset.path);
      await mkdir(dirname(served), { recursive: true });
      if (!asset.path.endsWith('.tar.bz2')) {
        const layout = join(root, 'layouts', name);
        await mkdir(layout, { recursive: true });
        await writeFile(served, (await asset.build(layout)) as Buffer);
        continue;
      }
      const folder = asset.path.split('/').pop()!.replace('.tar.bz2', '');
      await mkdir(join(root, 'layouts', name, folder), { recursive: true });
      await asset.build(join(root, 'layouts', name, folder));
      await exec('tar', ['-cjf', served, '-C', join(root, 'layouts', name), folder]);
    }
  }
}

/** The built-in entry with its URLs on the mirror and its pins moved to the stand-in files. */
async function mirroredEntry(model: CatalogModel, root: string, base: string): Promise<CatalogModel> {
  const served = (url: string) => join(root, 'served', url.slice(BASE_URL.length));
  const unpacked = join(root, 'layouts', model.name, model.archive.rootDir ?? '');
  const fileData = (path: string) => {
    const extra = model.extras?.find((candidate) => candidate.path === path);
    if (extra) return readFile(served(extra.url));
    return readFile(model.archive.url.endsWith('.tar.bz2') ? join(unpacked, path) : served(model.archive.url));
  };
  return {
    ...model,
    archive: { ...model.archive, url: base + model.archive.url.slice(BASE_URL.length), ...repin(model.archive, await readFile(served(model.archive.url))) },
    files: await Promise.all(model.files.map(async (file) => ({ ...file, ...repin(file, await fileData(file.path)) }))),
    extras:
      model.extras &&
      (await Promise.all(
        model.extras.map(async (extra) => ({ ...extra, url: base + extra.url.slice(BASE_URL.length), ...repin(extra, await readFile(served(extra.url))) })),
      )),
  };
}

export interface OfficialMirror {
  /** A test catalog (TIMBRE_MODELS_TEST_CATALOG) replacing every built-in entry with its mirrored one. */
  catalogFile: string;
  /** The served file of a release path, to change it under the catalog's feet. */
  served: (path: string) => string;
  close: () => Promise<void>;
}

/** Builds the assets, serves them on 127.0.0.1 and writes the test catalog. */
export async function startOfficialMirror(root: string): Promise<OfficialMirror> {
  await buildAssets(root);
  const server = http.createServer((request, response) => {
    const path = join(root, 'served', decodeURIComponent(new URL(request.url ?? '/', 'http://mirror').pathname));
    if (!path.startsWith(join(root, 'served'))) return void response.writeHead(403).end();
    readFile(path).then(
      (data) => response.writeHead(200, { 'content-length': data.length }).end(data),
      () => response.writeHead(404).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const entries = await Promise.all(catalog({}).map((model) => mirroredEntry(model, root, base)));
  const catalogFile = join(root, 'catalog.json');
  await writeFile(catalogFile, JSON.stringify(entries));
  return { catalogFile, served: (path) => join(root, 'served', path), close: () => new Promise((resolve) => server.close(() => resolve())) };
}
