import { statfs } from 'node:fs/promises';
import os from 'node:os';
import si from 'systeminformation';
import { TIMBRE_VERSION } from '../../platform/install-dir.js';
import type { DatabaseInfo } from '../../platform/store/database.js';
import { readGpus, type GpuReport } from './gpu.js';
import { roundTo } from '../../platform/util/round.js';
import { errorText } from '../../platform/errors.js';

/**
 * Parts of the status that other services contribute (the job queue, the engine host);
 * each appears in `/api/system/status` under its name once registered. A section about keys
 * shows only the calling key's line (its id is given).
 */
export type StatusSection = (callerKeyId: string) => Record<string, unknown> | Promise<Record<string, unknown>>;

/** What is installed for the engines; the engine layer registers it. */
export type InstalledInventory = () => Promise<{ engines: unknown[]; models: unknown[] }>;

export interface SystemDeps {
  dataDir: string;
  database: () => DatabaseInfo;
  startedAt: Date;
}

/** Fields of the status the service itself fills; no section may take their names. */
const BUILT_IN_STATUS = new Set(['status', 'started_at', 'uptime_seconds', 'system_uptime_seconds', 'process', 'data_dir', 'database']);

export class SystemService {
  private readonly sections = new Map<string, StatusSection>();
  private inventory: InstalledInventory = async () => ({ engines: [], models: [] });

  constructor(private readonly deps: SystemDeps) {}

  registerStatusSection(name: string, section: StatusSection): void {
    if (BUILT_IN_STATUS.has(name) || this.sections.has(name)) throw new Error(`The status already has a section ${name}`);
    this.sections.set(name, section);
  }

  registerInventory(inventory: InstalledInventory): void {
    this.inventory = inventory;
  }

  async stats() {
    const [load, memory, gpu] = await Promise.all([si.currentLoad(), si.mem(), readGpus()]);
    return {
      cpu: {
        load_percent: roundTo(load.currentLoad, 1),
        cores: load.cpus.map((core, index) => ({ core: index, load_percent: roundTo(core.load, 1) })),
        load_average: os.loadavg().map((value) => roundTo(value, 2)),
      },
      memory: { total_bytes: memory.total, used_bytes: memory.active, available_bytes: memory.available },
      gpus: gpu.gpus.map((item) => ({
        index: item.index,
        name: item.name,
        utilization_percent: item.utilization_percent,
        memory_used_bytes: item.memory_used_bytes,
        memory_total_bytes: item.memory_total_bytes,
      })),
    };
  }

  async info() {
    const [osInfo, cpu, memory, gpu, inventory] = await Promise.all([si.osInfo(), si.cpu(), si.mem(), readGpus(), this.inventory()]);
    return {
      os: { platform: osInfo.platform, distro: osInfo.distro, release: osInfo.release, kernel: osInfo.kernel, arch: osInfo.arch, hostname: osInfo.hostname },
      cpu: {
        model: `${cpu.manufacturer} ${cpu.brand}`.trim(),
        cores: cpu.cores,
        physical_cores: cpu.physicalCores,
        speed_ghz: cpu.speed,
      },
      memory: { total_bytes: memory.total },
      gpus: gpu.gpus.map((item) => ({ index: item.index, name: item.name, memory_total_bytes: item.memory_total_bytes, driver_version: item.driver_version })),
      versions: { timbre: TIMBRE_VERSION, node: process.versions.node },
      engines: inventory.engines,
      models: inventory.models,
    };
  }

  async status(callerKeyId: string) {
    const disk = await statfs(this.deps.dataDir);
    // A section that fails shows its error; the rest of the status still answers.
    const entries = await Promise.all(
      [...this.sections].map(
        async ([name, section]) =>
          [
            name,
            await Promise.resolve()
              .then(() => section(callerKeyId))
              .catch((error: unknown) => ({ ok: false, error: errorText(error) })),
          ] as const,
      ),
    );
    const database = this.databaseHealth();
    return {
      status: database.ok ? 'ok' : 'degraded',
      started_at: this.deps.startedAt.toISOString(),
      uptime_seconds: roundTo(process.uptime(), 0),
      system_uptime_seconds: roundTo(os.uptime(), 0),
      process: { pid: process.pid, rss_bytes: process.memoryUsage().rss, heap_used_bytes: process.memoryUsage().heapUsed },
      data_dir: { path: this.deps.dataDir, free_bytes: disk.bavail * disk.bsize, total_bytes: disk.blocks * disk.bsize },
      database,
      ...Object.fromEntries(entries),
    };
  }

  private databaseHealth() {
    try {
      return { ok: true, ...this.deps.database() };
    } catch (error) {
      return { ok: false, error: errorText(error) };
    }
  }

  gpu(): Promise<GpuReport> {
    return readGpus();
  }
}
