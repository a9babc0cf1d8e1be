import si from 'systeminformation';
import { findExecutable } from '../../platform/util/executables.js';

export interface GpuDetails {
  index: number;
  name: string;
  vendor: string;
  driver_version: string | null;
  bus_id: string | null;
  utilization_percent: number | null;
  memory_utilization_percent: number | null;
  memory_total_bytes: number | null;
  memory_used_bytes: number | null;
  memory_free_bytes: number | null;
  temperature_c: number | null;
  power_draw_w: number | null;
  power_limit_w: number | null;
  fan_percent: number | null;
}

export interface GpuReport {
  gpus: GpuDetails[];
  /** Why the list is empty, when it is. */
  reason: string | null;
}

const MIB = 1024 * 1024;

function mebibytes(value: number | undefined): number | null {
  return value === undefined ? null : Math.round(value * MIB);
}

function orNull(value: number | undefined): number | null {
  return value === undefined || Number.isNaN(value) ? null : value;
}

/** NVIDIA GPUs as nvidia-smi reports them (through systeminformation, which runs it). */
export async function readGpus(): Promise<GpuReport> {
  if (!findExecutable('nvidia-smi')) {
    return { gpus: [], reason: 'nvidia-smi is not installed: no NVIDIA GPU or driver on this machine; inference runs on the CPU' };
  }
  const { controllers } = await si.graphics();
  const gpus = controllers
    .filter((controller) => /nvidia/i.test(controller.vendor) || controller.utilizationGpu !== undefined)
    .map((controller, index): GpuDetails => ({
      index,
      name: controller.name ?? controller.model,
      vendor: controller.vendor,
      driver_version: controller.driverVersion ?? null,
      bus_id: controller.pciBus ?? controller.busAddress ?? null,
      utilization_percent: orNull(controller.utilizationGpu),
      memory_utilization_percent: orNull(controller.utilizationMemory),
      memory_total_bytes: mebibytes(controller.memoryTotal),
      memory_used_bytes: mebibytes(controller.memoryUsed),
      memory_free_bytes: mebibytes(controller.memoryFree),
      temperature_c: orNull(controller.temperatureGpu),
      power_draw_w: orNull(controller.powerDraw),
      power_limit_w: orNull(controller.powerLimit),
      fan_percent: orNull(controller.fanSpeed),
    }));
  return { gpus, reason: gpus.length > 0 ? null : 'nvidia-smi found no GPU' };
}
