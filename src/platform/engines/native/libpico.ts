import { EngineError } from '../../errors.js';
import {
  type Koffi,
  type LibraryHandle,
  type NativeSession,
  type Pointer,
  SampleBuffer,
  SerialLock,
  cString,
  openLibrary,
  yieldToEventLoop,
} from './library.js';

/**
 * SVOX Pico through libttspico (the library pico2wave is built on), with pico2wave's sequence:
 * one system over a memory area of our own, each language's two lingware files loaded once, a voice
 * definition and an engine for the language in use (pico runs one engine at a time), then text in,
 * 16 kHz samples out until the engine is idle.
 */

export const PICO_LIBRARY = 'libttspico.so.0';
export const PICO_PACKAGE = 'libttspico0';

const PICO_STEP_IDLE = 200;
const PICO_STEP_BUSY = 201;
/**
 * A soft reset clears what a text leaves behind (also one stopped halfway) but keeps the signal
 * generator's state, so the next text's samples depend on what came before; a full one brings the
 * engine back to how pico2wave starts, and costs about 4 ms.
 */
const PICO_RESET_FULL = 0;
const PICO_RESET_SOFT = 0x10;
/** PICO_RETSTRINGSIZE: status messages are at most this long. */
const MESSAGE_BYTES = 200;
/** Resource names are at most PICO_MAX_RESOURCE_NAME_SIZE (32) bytes; room to spare. */
const NAME_BYTES = 64;
/** pico_putTextUtf8 takes its size as a pico_Int16. */
const MAX_TEXT_BYTES = 32_767;
/** Bytes offered per pico_getData call; pico hands out at most 64 (one step's worth) anyway. */
const OUTPUT_BYTES = 256;
/** Steps between looks at the clock; a step is a microsecond or two of work. */
const STEPS_PER_CHECK = 256;
/** Longest stretch of synthesis before letting the event loop run (a cancellation, a piece timeout). */
const YIELD_MS = 20;

/** A language as pico loads it: its name and its text-analysis and signal-generation files. */
export interface PicoLanguage {
  name: string;
  resources: readonly string[];
}

interface PicoApi {
  initialize(memory: Pointer, size: number, outSystem: Pointer[]): number;
  terminate(system: Pointer[]): number;
  getSystemStatusMessage(system: Pointer, status: number, outMessage: Buffer): number;
  loadResource(system: Pointer, file: string, outResource: Pointer[]): number;
  unloadResource(system: Pointer, resource: Pointer[]): number;
  getResourceName(system: Pointer, resource: Pointer, outName: Buffer): number;
  createVoiceDefinition(system: Pointer, voice: string): number;
  releaseVoiceDefinition(system: Pointer, voice: string): number;
  addResourceToVoiceDefinition(system: Pointer, voice: string, resourceName: string): number;
  newEngine(system: Pointer, voice: string, outEngine: Pointer[]): number;
  disposeEngine(system: Pointer, engine: Pointer[]): number;
  putTextUtf8(engine: Pointer, text: Buffer, size: number, outBytesPut: Pointer): number;
  getData(engine: Pointer, outBuffer: Pointer, size: number, outBytesReceived: Pointer, outDataType: Pointer): number;
  resetEngine(engine: Pointer, mode: number): number;
}

function bindPico(lib: LibraryHandle): PicoApi {
  return {
    initialize: lib.func('int pico_initialize(void *memory, uint32_t size, _Out_ void **outSystem)'),
    terminate: lib.func('int pico_terminate(_Inout_ void **system)'),
    getSystemStatusMessage: lib.func('int pico_getSystemStatusMessage(void *system, int status, _Out_ uint8_t *outMessage)'),
    loadResource: lib.func('int pico_loadResource(void *system, const char *file, _Out_ void **outResource)'),
    unloadResource: lib.func('int pico_unloadResource(void *system, _Inout_ void **resource)'),
    getResourceName: lib.func('int pico_getResourceName(void *system, void *resource, _Out_ uint8_t *outName)'),
    createVoiceDefinition: lib.func('int pico_createVoiceDefinition(void *system, const char *voice)'),
    releaseVoiceDefinition: lib.func('int pico_releaseVoiceDefinition(void *system, const char *voice)'),
    addResourceToVoiceDefinition: lib.func('int pico_addResourceToVoiceDefinition(void *system, const char *voice, const char *resourceName)'),
    newEngine: lib.func('int pico_newEngine(void *system, const char *voice, _Out_ void **outEngine)'),
    disposeEngine: lib.func('int pico_disposeEngine(void *system, _Inout_ void **engine)'),
    putTextUtf8: lib.func('int pico_putTextUtf8(void *engine, const uint8_t *text, int16_t size, void *outBytesPut)'),
    getData: lib.func('int pico_getData(void *engine, void *outBuffer, int16_t size, void *outBytesReceived, void *outDataType)'),
    resetEngine: lib.func('int pico_resetEngine(void *engine, int mode)'),
  };
}

/** The library, loaded and initialised once; every call goes through `lock`, one at a time. */
export class PicoSession implements NativeSession {
  private readonly api: PicoApi;
  private readonly lock = new SerialLock();
  private readonly system: Pointer;
  /** The library's outputs land in memory of our own, read through views (nothing made per call). */
  private readonly output: Pointer;
  private readonly bytesPut: Pointer;
  private readonly bytesReceived: Pointer;
  private readonly dataType: Pointer;
  private readonly outputView: Int16Array;
  private readonly bytesPutView: Int16Array;
  private readonly bytesReceivedView: Int16Array;
  /** Resource names of each language loaded so far, and every loaded resource, for close(). */
  private readonly languages = new Map<string, string[]>();
  private readonly resources: Pointer[] = [];
  private current: { name: string; engine: Pointer } | undefined;
  private closed = false;

  private constructor(
    private readonly koffi: Koffi,
    private readonly lib: LibraryHandle,
    private readonly memory: Pointer,
    memoryBytes: number,
  ) {
    this.api = bindPico(lib);
    const system: Pointer[] = [null];
    const status = this.api.initialize(memory, memoryBytes, system);
    if (status !== 0 || !system[0]) throw new EngineError('engine_failed', `pico: pico_initialize failed with status ${status}`, { status });
    this.system = system[0];
    [this.output, this.bytesPut, this.bytesReceived, this.dataType] = [OUTPUT_BYTES, 2, 2, 2].map((bytes): Pointer => koffi.alloc('uint8', bytes));
    this.outputView = new Int16Array(koffi.view(this.output, OUTPUT_BYTES));
    this.bytesPutView = new Int16Array(koffi.view(this.bytesPut, 2));
    this.bytesReceivedView = new Int16Array(koffi.view(this.bytesReceived, 2));
  }

  /** `memoryBytes` must hold every language that will be used, as pico allocates nothing itself. */
  static async open(memoryBytes: number): Promise<PicoSession> {
    const { koffi, lib } = await openLibrary(PICO_LIBRARY, PICO_PACKAGE);
    const memory: Pointer = koffi.alloc('uint8', memoryBytes);
    try {
      return new PicoSession(koffi, lib, memory, memoryBytes);
    } catch (error) {
      koffi.free(memory);
      lib.unload();
      throw error;
    }
  }

  /**
   * Speaks UTF-8 text (pico markup allowed) in a language; 16-bit samples at 16 kHz. `fresh` starts
   * from a full reset: the first piece of a request, so that a request sounds the same every time
   * (and as pico2wave says it) while its later pieces skip the cost.
   */
  speak(language: PicoLanguage, text: string, signal: AbortSignal, fresh: boolean): Promise<Int16Array> {
    return this.lock.run(async () => {
      if (this.closed) throw new EngineError('engine_failed', 'pico: the library was released');
      signal.throwIfAborted();
      const engine = this.engineFor(language);
      if (fresh) this.api.resetEngine(engine, PICO_RESET_FULL);
      // NUL ends the text for pico; the one at the end tells it that the text is complete.
      const bytes = Buffer.from(`${text.replaceAll('\0', ' ')}\0`, 'utf8');
      try {
        return await this.render(engine, bytes, signal);
      } finally {
        this.api.resetEngine(engine, PICO_RESET_SOFT);
      }
    });
  }

  close(): Promise<void> {
    return this.lock.run(() => {
      if (this.closed) return;
      this.closed = true;
      this.dropEngine();
      for (const resource of this.resources) this.api.unloadResource(this.system, [resource]);
      this.api.terminate([this.system]);
      for (const memory of [this.output, this.bytesPut, this.bytesReceived, this.dataType, this.memory]) this.koffi.free(memory);
      this.lib.unload();
    });
  }

  private async render(engine: Pointer, bytes: Buffer, signal: AbortSignal): Promise<Int16Array> {
    const samples = new SampleBuffer();
    let sent = 0;
    while (sent < bytes.length) {
      const size = Math.min(bytes.length - sent, MAX_TEXT_BYTES);
      this.check('pico_putTextUtf8', this.api.putTextUtf8(engine, bytes.subarray(sent, sent + size), size, this.bytesPut));
      const put = this.bytesPutView[0] ?? 0;
      sent += put;
      const produced = await this.drain(engine, samples, signal);
      if (put === 0 && !produced) throw new EngineError('engine_failed', 'pico: pico_putTextUtf8 took no text', { sent, bytes: bytes.length });
    }
    return samples.toArray();
  }

  /** Calls pico_getData until the engine is idle; answers whether it did any work. */
  private async drain(engine: Pointer, samples: SampleBuffer, signal: AbortSignal): Promise<boolean> {
    let steps = 0;
    let since = performance.now();
    for (;;) {
      const status = this.api.getData(engine, this.output, OUTPUT_BYTES, this.bytesReceived, this.dataType);
      const count = (this.bytesReceivedView[0] ?? 0) >> 1;
      if (count > 0) samples.push(this.outputView, count);
      if (status === PICO_STEP_IDLE) return steps > 0 || count > 0;
      if (status !== PICO_STEP_BUSY) throw this.failure('pico_getData', status);
      if (++steps % STEPS_PER_CHECK === 0 && performance.now() - since > YIELD_MS) {
        await yieldToEventLoop();
        signal.throwIfAborted();
        since = performance.now();
      }
    }
  }

  private engineFor(language: PicoLanguage): Pointer {
    if (this.current?.name === language.name) return this.current.engine;
    this.dropEngine();
    const names = this.languages.get(language.name) ?? this.loadLanguage(language);
    this.check('pico_createVoiceDefinition', this.api.createVoiceDefinition(this.system, language.name));
    try {
      for (const name of names) this.check('pico_addResourceToVoiceDefinition', this.api.addResourceToVoiceDefinition(this.system, language.name, name));
      const engine: Pointer[] = [null];
      this.check('pico_newEngine', this.api.newEngine(this.system, language.name, engine));
      this.current = { name: language.name, engine: engine[0] };
      return engine[0];
    } catch (error) {
      this.api.releaseVoiceDefinition(this.system, language.name);
      throw error;
    }
  }

  private loadLanguage(language: PicoLanguage): string[] {
    const names = language.resources.map((file) => {
      const resource: Pointer[] = [null];
      this.check('pico_loadResource', this.api.loadResource(this.system, file, resource), { file });
      this.resources.push(resource[0]);
      const name = Buffer.alloc(NAME_BYTES);
      this.check('pico_getResourceName', this.api.getResourceName(this.system, resource[0], name), { file });
      return cString(name);
    });
    this.languages.set(language.name, names);
    return names;
  }

  private dropEngine(): void {
    if (!this.current) return;
    this.api.disposeEngine(this.system, [this.current.engine]);
    this.api.releaseVoiceDefinition(this.system, this.current.name);
    this.current = undefined;
  }

  private check(step: string, status: number, details: Record<string, unknown> = {}): void {
    if (status !== 0) throw this.failure(step, status, details);
  }

  private failure(step: string, status: number, details: Record<string, unknown> = {}): EngineError {
    const message = Buffer.alloc(MESSAGE_BYTES);
    this.api.getSystemStatusMessage(this.system, status, message);
    return new EngineError('engine_failed', `pico: ${step} failed with status ${status}: ${cString(message) || 'no message'}`, { status, step, ...details });
  }
}
