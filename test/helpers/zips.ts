import zlib from 'node:zlib';

/**
 * Raw deflate data that inflates to `mebibytes` MiB of zeros, built without deflating that much:
 * after the first sync-flushed MiB, each further MiB of zeros deflates to the very same bytes (the
 * window holds only zeros), so the stream is the first block, that block repeated, and an empty
 * final block.
 */
export async function deflatedZeros(mebibytes: number): Promise<Buffer> {
  const deflate = zlib.createDeflateRaw({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => out.push(chunk));
  const nextMebibyte = () =>
    new Promise<Buffer>((resolve) => {
      deflate.write(Buffer.alloc(1024 * 1024));
      deflate.flush(zlib.constants.Z_SYNC_FLUSH, () => resolve(Buffer.concat(out.splice(0))));
    });
  const first = await nextMebibyte();
  const repeated = await nextMebibyte();
  deflate.destroy();
  // 0x03 0x00: a final, fixed-Huffman block holding only its end code.
  return Buffer.concat([first, ...Array<Buffer>(mebibytes - 1).fill(repeated), Buffer.from([0x03, 0x00])]);
}

export interface RawEntry {
  name: string;
  /** The entry's bytes as stored in the zip: raw deflate data when `deflated`. */
  data: Buffer;
  deflated: boolean;
  /** The size the entry claims to inflate to, in both its local header and the central directory. */
  declaredSize: number;
}

/** A zip whose entries say whatever their `declaredSize` says (CRCs are left 0; readers that check them see a damaged entry). */
export function rawZip(entries: RawEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const method = entry.deflated ? 8 : 0;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x800, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(entry.data.length, 18);
    local.writeUInt32LE(entry.declaredSize, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x800, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(entry.data.length, 20);
    central.writeUInt32LE(entry.declaredSize, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, entry.data);
    centrals.push(central, name);
    offset += local.length + name.length + entry.data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** A voice archive manifest of one-sample clone voices, as another Timbre would export them. */
export function archiveManifest(voices: { id: string; name?: string }[]) {
  return {
    format: 'timbre-voices',
    version: 1,
    exported_at: '2024-05-01T12:00:00.000Z',
    voices: voices.map(({ id, name }) => ({
      id,
      name: name ?? `Voice ${id}`,
      type: 'clone',
      engine: 'zipvoice',
      engine_voice: 'zipvoice:reference',
      language: 'en-US',
      languages: ['en-US'],
      gender: null,
      description: null,
      tags: [],
      settings: {},
      samples: [{ file: `samples/${id}/1.wav`, duration: 1, sample_rate: 16000, transcript: null }],
    })),
  };
}
