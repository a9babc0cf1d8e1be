import { readFile, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { startOfficialMirror } from './official-mirror.js';

/** A catalog model whose server sends half of its archive, then nothing: its install is still downloading when a test cancels it. */
export const STALLED_MODEL = 'test-stalled';
const STALLED_BYTES = 1 << 20;

function stalledEntry(url: string) {
  return {
    name: STALLED_MODEL,
    engine: 'test',
    kind: 'synthesizer',
    description: 'Stalled test model: never finishes downloading',
    license: 'MIT',
    languages: ['en'],
    archive: { url, bytes: STALLED_BYTES, sha256: null, rootDir: 'test-model' },
    files: [{ path: 'model.onnx', bytes: null, sha256: null }],
    sharedPath: STALLED_MODEL,
  };
}

export interface ModelMirrors {
  /** A test catalog (TIMBRE_MODELS_TEST_CATALOG): every official model on the loopback mirror, and STALLED_MODEL. */
  catalogFile: string;
  close: () => Promise<void>;
}

/** The official mirror (official-mirror.ts) and a server that stalls, under `root`. */
export async function startModelMirrors(root: string): Promise<ModelMirrors> {
  const mirror = await startOfficialMirror(join(root, 'mirror'));
  const stalling = http.createServer((_request, response) => {
    response.writeHead(200, { 'content-length': STALLED_BYTES });
    response.write(Buffer.alloc(STALLED_BYTES / 2, 7));
  });
  await new Promise<void>((resolve) => stalling.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(stalling.address() as AddressInfo).port}/test-model.tar.bz2`;
  const catalogFile = join(root, 'catalog.json');
  await writeFile(catalogFile, JSON.stringify([...JSON.parse(await readFile(mirror.catalogFile, 'utf8')), stalledEntry(url)]));
  const close = async () => {
    stalling.closeAllConnections();
    await new Promise((resolve) => stalling.close(resolve));
    await mirror.close();
  };
  return { catalogFile, close };
}
