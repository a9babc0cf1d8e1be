import { createHash } from 'node:crypto';
import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KokoroShape } from '../model-files.js';
import type { OfflineTts } from './sherpa-types.js';
import { EngineError } from '../../errors.js';

/**
 * Blended Kokoro voices. sherpa-onnx takes a speaker id, never a style vector, and reads voices.bin
 * once when the model loads. So a blend gets its own OfflineTts whose voices file holds the blend
 * in every speaker slot (the file must keep the size the metadata declares, or sherpa exits). The
 * file is deleted once loaded. Each instance loads the acoustic model again (about 100 MB for
 * Kokoro int8), so only the most recently used few blends stay loaded.
 */
export class KokoroBlends {
  private readonly loaded = new Map<string, Promise<OfflineTts>>();

  constructor(
    private readonly shape: KokoroShape,
    private readonly load: (voicesFile: string) => Promise<OfflineTts>,
    private readonly capacity = 2,
  ) {}

  /** The instance that speaks `style` as speaker 0. */
  instanceFor(style: Float32Array): Promise<OfflineTts> {
    const expected = this.shape.rows * this.shape.rowSize;
    if (style.length !== expected) {
      throw new EngineError('invalid_style', `A Kokoro style has ${expected} values (${this.shape.rows}×${this.shape.rowSize}), got ${style.length}`);
    }
    if (!style.every(Number.isFinite)) throw new EngineError('invalid_style', 'The style vector holds a non-finite value');
    const bytes = Buffer.from(style.buffer, style.byteOffset, style.byteLength);
    const key = createHash('sha256').update(bytes).digest('hex');
    const cached = this.loaded.get(key);
    if (cached) {
      this.loaded.delete(key);
      this.loaded.set(key, cached);
      return cached;
    }
    const instance = this.loadBlend(bytes);
    this.loaded.set(key, instance);
    instance.catch(() => this.loaded.delete(key));
    for (const oldest of this.loaded.keys()) {
      if (this.loaded.size <= this.capacity) break;
      this.loaded.delete(oldest);
    }
    return instance;
  }

  private async loadBlend(style: Buffer): Promise<OfflineTts> {
    const dir = await mkdtemp(join(tmpdir(), 'timbre-kokoro-blend-'));
    try {
      const file = join(dir, 'voices.bin');
      await writeFile(file, Buffer.concat(new Array<Buffer>(this.shape.speakers).fill(style)));
      return await this.load(file);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
}

/** The style table of one speaker (`rows × rowSize` floats) read from a voices.bin. */
export async function readStyleTable(voicesFile: string, shape: Pick<KokoroShape, 'rows' | 'rowSize'>, sid: number): Promise<Float32Array> {
  const bytes = Buffer.alloc(shape.rows * shape.rowSize * 4);
  const file = await open(voicesFile, 'r');
  try {
    await file.read(bytes, 0, bytes.length, sid * bytes.length);
  } finally {
    await file.close();
  }
  return new Float32Array(bytes.buffer, bytes.byteOffset, shape.rows * shape.rowSize);
}
