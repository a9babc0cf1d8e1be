import { type Engine, type EngineDescriptor, type EngineSettings } from '../types.js';
import { EngineError } from '../../errors.js';

interface Entry {
  engine: Promise<Engine>;
  lastUsed: number;
  busy: number;
}

/**
 * The engines loaded in this host: each loads on first use, at most once even when two jobs ask at
 * the same time, and is disposed after it has been idle for `idleMs`.
 */
export class LoadedEngines {
  private readonly entries = new Map<string, Entry>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly descriptors: ReadonlyMap<string, EngineDescriptor>,
    private readonly idleMs: number,
    private readonly settings?: EngineSettings,
  ) {
    this.sweeper = setInterval(() => void this.unloadIdle(), Math.max(1000, idleMs / 2));
    this.sweeper.unref();
  }

  /** Runs `use` with the engine, keeping it from being unloaded meanwhile. */
  async with<T>(id: string, use: (engine: Engine) => Promise<T>): Promise<T> {
    const entry = this.entry(id);
    entry.busy++;
    try {
      return await use(await entry.engine);
    } finally {
      entry.busy--;
      entry.lastUsed = Date.now();
    }
  }

  loaded(): string[] {
    return [...this.entries.keys()];
  }

  private entry(id: string): Entry {
    const existing = this.entries.get(id);
    if (existing) return existing;
    const descriptor = this.descriptors.get(id);
    if (!descriptor) throw new EngineError('engine_not_found', `No engine ${id}`, { engine: id, known: [...this.descriptors.keys()] });
    const entry: Entry = { engine: this.load(descriptor), lastUsed: Date.now(), busy: 0 };
    this.entries.set(id, entry);
    // A failed load is forgotten, so a later job (after the user fixed the files) tries again.
    entry.engine.catch(() => this.entries.delete(id));
    return entry;
  }

  private async load(descriptor: EngineDescriptor): Promise<Engine> {
    const availability = await descriptor.probe();
    if (!availability.available) {
      const code = availability.code ?? 'engine_unavailable';
      throw new EngineError(code, `${descriptor.id} is not available: ${availability.reason ?? 'unknown reason'}`, { engine: descriptor.id });
    }
    return descriptor.load(this.settings);
  }

  private async unloadIdle(): Promise<void> {
    const now = Date.now();
    for (const [id, entry] of this.entries) {
      if (entry.busy > 0 || now - entry.lastUsed < this.idleMs) continue;
      this.entries.delete(id);
      const engine = await entry.engine.catch(() => undefined);
      await engine?.dispose?.();
    }
  }
}
