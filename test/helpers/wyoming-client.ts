// A Wyoming client written from the protocol's own document (the rhasspy/wyoming README and
// wyoming/event.py), sharing nothing with Timbre's server, so the tests hold the server to the
// protocol rather than to itself. An event on the wire:
//   {"type": …, "data": {…}?, "data_length": N?, "payload_length": M?}\n  <N bytes of JSON>  <M bytes>
// The extra JSON is merged over the header's `data`; the payload is raw bytes (PCM audio).
import { execFile } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { promisify } from 'node:util';
import { startTimbre, type RunningTimbre } from './timbre.js';

const run = promisify(execFile);

export interface WyomingEvent {
  type: string;
  data: Record<string, any>;
  /** Empty when the event carries none. */
  payload: Buffer;
  /** Wall-clock milliseconds (comparable with the service's timestamps) when its last byte arrived. */
  receivedAt: number;
}

/** Where a sent event's data goes: as the Python library writes it (extra data after the header), or inline in the header. */
export type DataPlacement = 'additional' | 'header';

const wallClock = () => performance.timeOrigin + performance.now();

function isRecord(value: unknown): value is Record<string, any> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function lengthField(header: Record<string, any>, field: string): number {
  const value: unknown = header[field] ?? 0;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw new Error(`Wyoming header with a bad ${field}: ${JSON.stringify(header)}`);
  return value;
}

/** One connection: events sent as the protocol frames them, events read back one at a time as their bytes arrive. */
export class WyomingClient {
  private buffered: Buffer = Buffer.alloc(0);
  private readonly queue: WyomingEvent[] = [];
  private wake: (() => void) | undefined;
  private failure: Error | undefined;
  /** Wall-clock milliseconds when the connection closed; undefined while it is open. */
  closedAt: number | undefined;
  /** Resolves with the wall-clock milliseconds of the close. */
  readonly closed: Promise<number>;

  private constructor(private readonly socket: Socket) {
    socket.on('data', (bytes: Buffer) => this.receive(bytes));
    // A reset (the server dropping a client mid-upload) is a close like any other here; tests assert on closes.
    socket.on('error', () => undefined);
    this.closed = new Promise((resolve) =>
      socket.once('close', () => {
        this.closedAt = wallClock();
        this.notify();
        resolve(this.closedAt);
      }),
    );
  }

  static connect(port: number, host = '127.0.0.1'): Promise<WyomingClient> {
    return new Promise((resolve, reject) => {
      const socket = connect({ port, host, noDelay: true });
      socket.once('connect', () => resolve(new WyomingClient(socket)));
      socket.once('error', reject);
    });
  }

  /** Sends one event; resolves once its bytes are handed to the socket (false when it was already closed). */
  send(type: string, data: Record<string, unknown> = {}, payload?: Buffer, placement: DataPlacement = 'additional'): Promise<boolean> {
    const header: Record<string, unknown> = { type, version: '1.7.0' };
    const extra = placement === 'additional' && Object.keys(data).length > 0 ? Buffer.from(JSON.stringify(data), 'utf8') : undefined;
    if (placement === 'header') header.data = data;
    if (extra) header.data_length = extra.length;
    if (payload && payload.length > 0) header.payload_length = payload.length;
    const pieces = [Buffer.from(`${JSON.stringify(header)}\n`, 'utf8'), ...(extra ? [extra] : []), ...(payload && payload.length > 0 ? [payload] : [])];
    return this.sendRaw(Buffer.concat(pieces));
  }

  /** Bytes as given: a half event, a malformed header. */
  sendRaw(bytes: Buffer): Promise<boolean> {
    if (this.socket.destroyed || this.socket.writableEnded) return Promise.resolve(false);
    return new Promise((resolve) => this.socket.write(bytes, (error) => resolve(!error)));
  }

  /** The next event; undefined once the connection is closed and every event before the close was read. */
  async next(timeoutMs = 60_000): Promise<WyomingEvent | undefined> {
    const deadline = Date.now() + timeoutMs;
    while (this.queue.length === 0 && this.closedAt === undefined && this.failure === undefined) {
      if (Date.now() >= deadline) throw new Error(`No Wyoming event within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, deadline - Date.now());
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    if (this.failure) throw this.failure;
    return this.queue.shift();
  }

  /** The next event, which must be of `type` (an `error` in its place fails with its text and code). */
  async expect(type: string, timeoutMs?: number): Promise<WyomingEvent> {
    const event = await this.next(timeoutMs);
    if (event?.type !== type) throw new Error(`Expected ${type}, got ${event ? `${event.type} ${JSON.stringify(event.data)}` : 'a closed connection'}`);
    return event;
  }

  /** Closes this side. */
  end(): void {
    this.socket.destroy();
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  private receive(bytes: Buffer): void {
    this.buffered = this.buffered.length === 0 ? bytes : Buffer.concat([this.buffered, bytes]);
    try {
      for (let event = this.parseOne(); event; event = this.parseOne()) this.queue.push(event);
    } catch (error) {
      this.failure = error instanceof Error ? error : new Error(String(error));
      this.socket.destroy();
    }
    this.notify();
  }

  /** One whole event off the front of the buffer, or undefined until all its bytes are here. */
  private parseOne(): WyomingEvent | undefined {
    const newline = this.buffered.indexOf(0x0a);
    if (newline < 0) return undefined;
    const header: unknown = JSON.parse(this.buffered.subarray(0, newline).toString('utf8'));
    if (!isRecord(header) || typeof header.type !== 'string') throw new Error(`Wyoming header without a type: ${JSON.stringify(header)}`);
    if (header.data !== undefined && !isRecord(header.data)) throw new Error(`Wyoming header whose data is no object: ${JSON.stringify(header)}`);
    const dataLength = lengthField(header, 'data_length');
    const payloadLength = lengthField(header, 'payload_length');
    const end = newline + 1 + dataLength + payloadLength;
    if (this.buffered.length < end) return undefined;
    const extra: unknown = dataLength > 0 ? JSON.parse(this.buffered.subarray(newline + 1, newline + 1 + dataLength).toString('utf8')) : {};
    if (!isRecord(extra)) throw new Error(`Wyoming additional data is no object: ${JSON.stringify(extra)}`);
    const payload = Buffer.from(this.buffered.subarray(newline + 1 + dataLength, end));
    this.buffered = this.buffered.subarray(end);
    return { type: header.type, data: { ...(header.data ?? {}), ...extra }, payload, receivedAt: wallClock() };
  }
}

export interface AudioFormat {
  rate: number;
  width: number;
  channels: number;
}

/** One reply of audio: audio-start, its chunks, audio-stop (or the error that came instead). */
export interface AudioReply {
  start: WyomingEvent | undefined;
  chunks: WyomingEvent[];
  stop: WyomingEvent | undefined;
  error: WyomingEvent | undefined;
  /** Every event read, in order (a test asserts no audio came with an error). */
  events: WyomingEvent[];
  pcm: Buffer;
  /** From the PCM's length and the rate audio-start announced. */
  seconds: number;
}

/**
 * Reads one audio reply; every chunk must carry the format its audio-start announced. `onEvent` sees
 * each event as it arrives (the reply so far included), before the next is read.
 */
export async function readAudio(
  client: WyomingClient,
  timeoutMs?: number,
  onEvent?: (event: WyomingEvent, sofar: AudioReply) => Promise<void>,
): Promise<AudioReply> {
  const reply: AudioReply = { start: undefined, chunks: [], stop: undefined, error: undefined, events: [], pcm: Buffer.alloc(0), seconds: 0 };
  for (let event = await client.next(timeoutMs); event; event = await client.next(timeoutMs)) {
    reply.events.push(event);
    if (event.type === 'error') reply.error = event;
    else if (event.type === 'audio-start') reply.start = event;
    else if (event.type === 'audio-chunk') {
      const format = reply.start?.data;
      if (!format || (['rate', 'width', 'channels'] as const).some((field) => event.data[field] !== format[field]))
        throw new Error(`audio-chunk ${JSON.stringify(event.data)} outside audio-start ${JSON.stringify(format)}`);
      reply.chunks.push(event);
    } else if (event.type === 'audio-stop') reply.stop = event;
    await onEvent?.(event, reply);
    if (reply.error || reply.stop) break;
  }
  reply.pcm = Buffer.concat(reply.chunks.map((chunk) => chunk.payload));
  const format = reply.start?.data;
  reply.seconds = format ? reply.pcm.length / (format.width * format.channels) / format.rate : 0;
  return reply;
}

/** `synthesize` with a text (and a voice by name), then its reply. */
export async function synthesize(client: WyomingClient, text: string, voice?: string): Promise<AudioReply> {
  await client.send('synthesize', voice === undefined ? { text } : { text, voice: { name: voice } });
  return readAudio(client);
}

/** Sends raw PCM as an audio stream: audio-start, chunks of `chunkMs`, audio-stop. */
export async function sendAudio(client: WyomingClient, pcm: Buffer, format: AudioFormat, chunkMs = 100): Promise<void> {
  const frame = format.width * format.channels;
  const chunkBytes = Math.round((format.rate * chunkMs) / 1000) * frame;
  await client.send('audio-start', { ...format });
  for (let offset = 0; offset < pcm.length; offset += chunkBytes) await client.send('audio-chunk', { ...format }, pcm.subarray(offset, offset + chunkBytes));
  await client.send('audio-stop');
}

/** Any audio file as raw signed 16-bit PCM at `rate` with `channels`, through ffmpeg. */
export async function rawPcm(file: string, rate: number, channels: number): Promise<Buffer> {
  const args = ['-v', 'error', '-nostdin', '-i', file, '-ar', String(rate), '-ac', String(channels), '-f', 's16le', '-'];
  const { stdout } = await run('ffmpeg', args, { encoding: 'buffer', maxBuffer: 256 * 1024 * 1024 });
  return stdout;
}

/** Signed 16-bit little-endian samples as floats in [-1, 1). */
export function int16Samples(pcm: Buffer): Float32Array {
  const samples = new Float32Array(Math.floor(pcm.length / 2));
  for (let index = 0; index < samples.length; index++) samples[index] = pcm.readInt16LE(index * 2) / 32768;
  return samples;
}

export interface RunningWyoming {
  timbre: RunningTimbre;
  /** The Wyoming port `timbre serve` printed. */
  port: number;
  connect(): Promise<WyomingClient>;
}

/** `timbre serve` with the Wyoming server on a free port, waiting for the line that names it. */
export async function startTimbreWithWyoming(options: { dataDir: string; keyId: string; env?: Record<string, string> }): Promise<RunningWyoming> {
  const env = { TIMBRE_WYOMING_PORT: '0', TIMBRE_WYOMING_KEY: options.keyId, ...options.env };
  const timbre = await startTimbre({ dataDir: options.dataDir, env });
  const line = await timbre.printed(/Wyoming listening on tcp:\/\/\S+:(\d+)/);
  const port = Number(line[1]);
  return { timbre, port, connect: () => WyomingClient.connect(port) };
}
