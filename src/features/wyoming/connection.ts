import type { FastifyBaseLogger } from 'fastify';
import { ApiError } from '../../platform/errors.js';
import type { KeyService, RequestLimits, Scope } from '../access/index.js';
import type { TranscriptionService } from '../transcription/index.js';
import type { VoiceService } from '../voices/index.js';
import { describeService, type DescribeDeps } from './describe.js';
import type { WyomingEvent } from './framing.js';
import {
  AudioFormatSchema,
  eventData,
  PingSchema,
  requestedVoice,
  SynthesizeChunkSchema,
  SynthesizeSchema,
  SynthesizeStartSchema,
  TranscribeSchema,
} from './requests.js';
import { clientError, ConnectionGone, errorEventData, type SendEvent } from './sender.js';
import { SynthesisStream } from './streaming.js';
import { speakText, type Generation } from './synthesize.js';
import { Recording } from './transcribe.js';
import { chooseVoice, wyomingLanguage, type ChosenVoice, type RequestedVoice } from './voice-choice.js';

/** What a Wyoming connection works with: Timbre's services, and the one key every request runs as. */
export interface WyomingDeps extends DescribeDeps {
  /** TIMBRE_WYOMING_KEY: re-admitted on every request, so revoking it stops Wyoming at once. */
  keyId: string;
  keys: Pick<KeyService, 'authenticateById'>;
  limits: Pick<RequestLimits, 'admit'>;
  voices: Pick<VoiceService, 'get' | 'list'>;
  generation: Generation;
  transcription: Pick<TranscriptionService, 'transcribe' | 'installed'>;
  maxTextChars: number;
  /** TIMBRE_WYOMING_MAX_AUDIO_SECONDS. */
  maxAudioSeconds: number;
  /** Where a transcription's audio waits (the uploads folder). */
  tempDir: string;
  log: FastifyBaseLogger;
}

/** A streamed synthesis or a transcription that failed: the rest of its events are dropped until it ends, each without another error. */
const FAILED = 'failed';

/** Any name Home Assistant may send for "the best recognizer": the program's own. */
const PROGRAM_NAME = 'timbre';

/**
 * One client's requests, one at a time, in the order they came: what each event type does, and
 * the state between events (an open synthesis stream, a transcription receiving audio). A
 * request the client got wrong, or Timbre refused, becomes an `error` event {text, code}; only a
 * connection that is gone (ConnectionGone: closed, or not reading) ends the handling.
 */
export class WyomingConnection {
  private stream: SynthesisStream | typeof FAILED | undefined;
  private recording: Recording | typeof FAILED | undefined;
  private readonly gone = new AbortController();
  private readonly speak = (voice: ChosenVoice, text: string) => speakText(this.deps.generation, voice, text, this.deps.keyId, this.gone.signal, this.send);
  private readonly choose = (requested: RequestedVoice | undefined, text: string) => chooseVoice(this.deps.voices, requested, text);
  private readonly handlers: Readonly<Record<string, (event: WyomingEvent) => Promise<void>>> = {
    describe: () => this.describe(),
    ping: (event) => this.send('pong', pong(eventData(PingSchema, event).text)),
    synthesize: (event) => this.synthesize(event),
    'synthesize-start': (event) => this.startStream(event),
    'synthesize-chunk': (event) => this.continueStream(event),
    'synthesize-stop': () => this.stopStream(),
    transcribe: (event) => this.transcribe(event),
    'audio-start': (event) => this.audio(event, (recording) => recording.start(eventData(AudioFormatSchema, event))),
    'audio-chunk': (event) => this.audio(event, (recording) => recording.chunk(eventData(AudioFormatSchema, event), event.payload ?? Buffer.alloc(0))),
    'audio-stop': () => this.finishRecording(),
  };

  constructor(
    private readonly deps: WyomingDeps,
    private readonly send: SendEvent,
  ) {}

  /** Handles one event; throws only when the connection is gone. */
  async handle(event: WyomingEvent): Promise<void> {
    const handler = this.handlers[event.type];
    try {
      if (!handler) throw new ApiError(400, 'unknown_event', `Timbre does not handle ${event.type} events`, { type: event.type });
      await handler(event);
    } catch (error) {
      await this.report(error);
    }
  }

  /** The client left: its synthesis stops, its audio is removed. */
  async close(): Promise<void> {
    this.gone.abort();
    await this.dropRecording();
  }

  /** Tells the client what went wrong; a connection that is gone is not told. */
  private async report(error: unknown): Promise<void> {
    if (error instanceof ConnectionGone) throw error;
    const apiError = clientError(error);
    if (apiError.statusCode >= 500) this.deps.log.error({ err: error }, 'a Wyoming request failed');
    await this.send('error', errorEventData(apiError));
  }

  /** The key, admitted now (revoked or deleted keys stop here) and counted against the scope's budget. */
  private admit(scope: Scope): void {
    this.deps.limits.admit(this.deps.keys.authenticateById(this.deps.keyId), scope);
  }

  private async describe(): Promise<void> {
    this.admit('voices:read');
    await this.send('info', await describeService(this.deps));
  }

  /** A whole text; ignored while a stream is open (Home Assistant sends both, for servers without streaming). */
  private async synthesize(event: WyomingEvent): Promise<void> {
    if (this.stream) return;
    const request = eventData(SynthesizeSchema, event);
    this.admit('tts:generate');
    await this.speak(await this.choose(requestedVoice(request.voice), request.text), request.text);
  }

  /** A new stream replaces one left open. */
  private async startStream(event: WyomingEvent): Promise<void> {
    this.stream = FAILED;
    const requested = requestedVoice(eventData(SynthesizeStartSchema, event).voice);
    this.admit('tts:generate');
    this.stream = await SynthesisStream.open({ requested, maxTextChars: this.deps.maxTextChars, chooseVoice: this.choose, speak: this.speak });
  }

  private async continueStream(event: WyomingEvent): Promise<void> {
    const stream = this.openStream();
    if (stream === FAILED) return;
    try {
      await stream.add(eventData(SynthesizeChunkSchema, event).text);
    } catch (error) {
      this.stream = FAILED;
      throw error;
    }
  }

  /** Speaks the rest, then `synthesize-stopped`, after any error, so the client knows the stream is over. */
  private async stopStream(): Promise<void> {
    const stream = this.openStream();
    this.stream = undefined;
    if (stream !== FAILED) await stream.finish().catch((error: unknown) => this.report(error));
    await this.send('synthesize-stopped');
  }

  private openStream(): SynthesisStream | typeof FAILED {
    if (!this.stream) throw new ApiError(400, 'no_synthesis_stream', 'Send synthesize-start before synthesize-chunk or synthesize-stop');
    return this.stream;
  }

  /** Opens a transcription; its audio follows. Refused, its audio is dropped. */
  private async transcribe(event: WyomingEvent): Promise<void> {
    await this.dropRecording();
    this.recording = FAILED;
    const request = eventData(TranscribeSchema, event);
    this.admit('audio:process');
    const recognizer = request.name && request.name !== PROGRAM_NAME ? await this.recognizer(request.name) : undefined;
    const language = request.language ? wyomingLanguage(request.language, 'language') : undefined;
    this.recording = new Recording({ tempDir: this.deps.tempDir, maxSeconds: this.deps.maxAudioSeconds, language, recognizer });
  }

  private async recognizer(name: string) {
    const installed = await this.deps.transcription.installed();
    const found = installed.find((engine) => engine === name);
    if (!found) throw new ApiError(404, 'model_not_found', `No installed recognizer is named ${name}; describe lists those that are`, { name, installed });
    return found;
  }

  /** audio-start and audio-chunk: to the open transcription; a failure drops the rest of its audio. */
  private async audio(event: WyomingEvent, take: (recording: Recording) => Promise<unknown>): Promise<void> {
    if (this.recording === FAILED) return;
    if (!this.recording) {
      this.recording = FAILED;
      throw new ApiError(400, 'no_transcription', `${event.type} came with no transcribe before it: send transcribe, then the audio`);
    }
    try {
      await take(this.recording);
    } catch (error) {
      await this.dropRecording();
      this.recording = FAILED;
      throw error;
    }
  }

  private async finishRecording(): Promise<void> {
    const recording = this.recording;
    this.recording = undefined;
    if (recording === FAILED) return;
    if (!recording) throw new ApiError(400, 'no_transcription', 'audio-stop came with no transcribe before it');
    try {
      const result = await recording.transcribe(this.deps.transcription, this.deps.keyId, this.gone.signal);
      await this.send('transcript', { text: result.text, language: result.language });
    } finally {
      await recording.discard();
    }
  }

  private async dropRecording(): Promise<void> {
    const recording = this.recording;
    this.recording = undefined;
    if (recording instanceof Recording) await recording.discard();
  }
}

function pong(text: string | null | undefined): Record<string, unknown> {
  return text === undefined || text === null ? {} : { text };
}
