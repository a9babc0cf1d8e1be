import { Readable } from 'node:stream';

/**
 * A response body that streams `chunks` as they come. The first chunk is awaited before anything
 * is sent, so a failure before any audio (a refused voice, an engine error on the first sentence)
 * still becomes an ordinary error response with its status; a failure later can only cut the
 * stream short. A client that goes away stops the source (its `return` runs).
 */
export async function streamingBody(chunks: AsyncIterable<Buffer>): Promise<Readable> {
  const iterator = chunks[Symbol.asyncIterator]();
  const first = await iterator.next();
  async function* rest(): AsyncGenerator<Buffer> {
    try {
      if (first.done) return;
      yield first.value;
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
    } finally {
      await iterator.return?.();
    }
  }
  return Readable.from(rest(), { objectMode: false });
}
