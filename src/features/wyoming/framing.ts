/**
 * The Wyoming protocol's framing (rhasspy/wyoming README, "Format"): a JSON header line, then
 * `data_length` bytes of JSON merged over the header's `data`, then `payload_length` bytes of
 * binary payload (PCM audio, mostly). Read incrementally as bytes arrive, with limits checked
 * before anything oversized is held.
 */
import { Type } from 'typebox';
import { Value } from 'typebox/value';
import { ApiError } from '../../platform/errors.js';

/** The protocol version written on every event sent: the streaming synthesis of wyoming 1.7. */
export const WYOMING_VERSION = '1.7.2';

export interface WyomingEvent {
  type: string;
  data: Record<string, unknown>;
  payload?: Buffer;
}

export interface FramingLimits {
  /** Header line and additional data together (TIMBRE_WYOMING_MAX_EVENT_BYTES). */
  maxEventBytes: number;
  /** Binary payload (TIMBRE_WYOMING_MAX_PAYLOAD_BYTES). */
  maxPayloadBytes: number;
}

const DataSchema = Type.Record(Type.String(), Type.Unknown());
const LengthSchema = Type.Optional(Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]));
/** Other header fields (`version`, anything newer) are accepted and ignored. */
const HeaderSchema = Type.Object({
  type: Type.String({ minLength: 1 }),
  data: Type.Optional(Type.Union([DataSchema, Type.Null()])),
  data_length: LengthSchema,
  payload_length: LengthSchema,
});

const NEWLINE = 0x0a;

/** Bytes being gathered until exactly `size` have arrived. */
class Gathering {
  private readonly parts: Buffer[] = [];
  private have = 0;

  constructor(readonly size: number) {}

  /** Takes what it still needs from `chunk` at `offset`; answers the new offset. */
  take(chunk: Buffer, offset: number): number {
    const end = Math.min(chunk.length, offset + this.size - this.have);
    if (end > offset) this.parts.push(chunk.subarray(offset, end));
    this.have += end - offset;
    return end;
  }

  get complete(): boolean {
    return this.have === this.size;
  }

  bytes(): Buffer {
    return Buffer.concat(this.parts, this.size);
  }
}

/** An event whose header has been read, waiting for its data and payload. */
interface Pending {
  type: string;
  data: Record<string, unknown>;
  extraData?: Gathering;
  payload?: Gathering;
}

function malformed(message: string): ApiError {
  return new ApiError(400, 'invalid_event', message);
}

function parseJson(bytes: Buffer, what: string): unknown {
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    throw malformed(`The event's ${what} is not valid JSON`);
  }
}

/**
 * Turns the bytes of one connection into events. Any error it throws (ApiError: `invalid_event`,
 * `event_too_large`, `payload_too_large`) leaves the stream unreadable: the connection must close.
 */
export class EventReader {
  private header: Buffer[] = [];
  private headerBytes = 0;
  private pending: Pending | undefined;

  constructor(private readonly limits: FramingLimits) {}

  /** The events completed by `chunk`, in order. */
  push(chunk: Buffer): WyomingEvent[] {
    const events: WyomingEvent[] = [];
    let offset = 0;
    while (offset < chunk.length) {
      offset = this.pending ? this.continuePending(this.pending, chunk, offset) : this.readHeader(chunk, offset);
      const done = this.pending && finished(this.pending);
      if (done) {
        events.push(done);
        this.pending = undefined;
      }
    }
    return events;
  }

  /** True while an event has been started and not finished: what a silent client leaves behind. */
  get midEvent(): boolean {
    return this.pending !== undefined || this.headerBytes > 0;
  }

  private readHeader(chunk: Buffer, offset: number): number {
    const newline = chunk.indexOf(NEWLINE, offset);
    const end = newline === -1 ? chunk.length : newline;
    this.header.push(chunk.subarray(offset, end));
    this.headerBytes += end - offset;
    if (this.headerBytes > this.limits.maxEventBytes) throw eventTooLarge(this.limits.maxEventBytes);
    if (newline === -1) return chunk.length;
    const line = Buffer.concat(this.header, this.headerBytes);
    this.header = [];
    this.headerBytes = 0;
    // A blank line between events (a hand-typed session) carries nothing.
    if (line.toString('utf8').trim() !== '') this.pending = this.startEvent(line);
    return newline + 1;
  }

  private startEvent(line: Buffer): Pending {
    const header = parseJson(line, 'header line');
    if (!Value.Check(HeaderSchema, header)) throw malformed('The event header must be a JSON object with a string "type" and integer lengths');
    const dataLength = header.data_length ?? 0;
    const payloadLength = header.payload_length ?? 0;
    if (line.length + dataLength > this.limits.maxEventBytes) throw eventTooLarge(this.limits.maxEventBytes);
    if (payloadLength > this.limits.maxPayloadBytes) {
      throw new ApiError(413, 'payload_too_large', `An event's payload may hold at most ${this.limits.maxPayloadBytes} bytes`, {
        payload_length: payloadLength,
        max_payload_bytes: this.limits.maxPayloadBytes,
      });
    }
    return {
      type: header.type,
      data: header.data ?? {},
      ...(dataLength > 0 ? { extraData: new Gathering(dataLength) } : {}),
      ...(payloadLength > 0 ? { payload: new Gathering(payloadLength) } : {}),
    };
  }

  private continuePending(pending: Pending, chunk: Buffer, offset: number): number {
    if (pending.extraData && !pending.extraData.complete) {
      const next = pending.extraData.take(chunk, offset);
      if (pending.extraData.complete) mergeData(pending, pending.extraData.bytes());
      return next;
    }
    return pending.payload ? pending.payload.take(chunk, offset) : offset;
  }
}

function eventTooLarge(max: number): ApiError {
  return new ApiError(413, 'event_too_large', `An event's header line and data may hold at most ${max} bytes`, { max_event_bytes: max });
}

function mergeData(pending: Pending, bytes: Buffer): void {
  const extra = parseJson(bytes, 'data');
  if (!Value.Check(DataSchema, extra)) throw malformed("The event's data must be a JSON object");
  pending.data = { ...pending.data, ...extra };
}

/** The event once its data and payload have all arrived. */
function finished(pending: Pending): WyomingEvent | undefined {
  if (pending.extraData && !pending.extraData.complete) return undefined;
  if (pending.payload && !pending.payload.complete) return undefined;
  return { type: pending.type, data: pending.data, ...(pending.payload ? { payload: pending.payload.bytes() } : {}) };
}

/** One event as bytes: the header line (with the version), the data as additional data, then the payload. */
export function encodeEvent(type: string, data: Record<string, unknown> = {}, payload?: Buffer): Buffer {
  const dataBytes = Object.keys(data).length > 0 ? Buffer.from(JSON.stringify(data), 'utf8') : undefined;
  const header = {
    type,
    version: WYOMING_VERSION,
    ...(dataBytes ? { data_length: dataBytes.length } : {}),
    ...(payload && payload.length > 0 ? { payload_length: payload.length } : {}),
  };
  const parts = [Buffer.from(`${JSON.stringify(header)}\n`, 'utf8'), ...(dataBytes ? [dataBytes] : []), ...(payload && payload.length > 0 ? [payload] : [])];
  return Buffer.concat(parts);
}
