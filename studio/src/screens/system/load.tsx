import { ErrorNote } from '../../components/notice.js';
import { formatBytes, formatPercent } from './format.js';
import type { GpuDetails, Stats } from './types.js';

/** A bar with its figure in words beside it (the figure is what a screen reader announces). */
function Gauge({ label, percent, text }: { label: string; percent: number | null; text: string }) {
  return (
    <div class="gauge">
      <span class="gauge-label">{label}</span>
      <meter min={0} max={100} low={70} high={90} optimum={0} value={percent ?? 0} aria-label={label} />
      <span class="gauge-value">{text}</span>
    </div>
  );
}

function Cpu({ cpu }: { cpu: Stats['cpu'] }) {
  return (
    <div class="load-block">
      <Gauge label="CPU" percent={cpu.load_percent} text={formatPercent(cpu.load_percent)} />
      <div class="cores">
        {cpu.cores.map((core) => (
          <Gauge key={core.core} label={`Core ${core.core}`} percent={core.load_percent} text={formatPercent(core.load_percent)} />
        ))}
      </div>
      <p class="hint">Load average (1, 5, 15 min): {cpu.load_average.map((load) => load.toFixed(2)).join(' · ')}</p>
    </div>
  );
}

function Memory({ memory }: { memory: Stats['memory'] }) {
  const percent = memory.total_bytes > 0 ? (memory.used_bytes / memory.total_bytes) * 100 : null;
  return (
    <div class="load-block">
      <Gauge label="Memory" percent={percent} text={`${formatBytes(memory.used_bytes)} of ${formatBytes(memory.total_bytes)} used`} />
      <p class="hint">{formatBytes(memory.available_bytes)} available</p>
    </div>
  );
}

function describeGpu(name: string, more: GpuDetails['gpus'][number] | undefined): string {
  const parts = [name];
  if (more) {
    if (more.temperature_c !== null) parts.push(`${more.temperature_c} °C`);
    if (more.power_draw_w !== null) parts.push(`${more.power_draw_w} W`);
    if (more.fan_percent !== null) parts.push(`fan ${more.fan_percent} %`);
    if (more.driver_version) parts.push(`driver ${more.driver_version}`);
  }
  return parts.join(' · ');
}

function Gpus({ stats, details }: { stats: Stats['gpus']; details: GpuDetails | undefined }) {
  const gpus = details?.gpus ?? [];
  if (stats.length === 0 && gpus.length === 0) {
    return <p class="hint">GPU: {details?.reason ?? 'none found'}</p>;
  }
  return (
    <div class="load-block">
      {stats.map((gpu) => {
        const more = gpus.find((candidate) => candidate.index === gpu.index);
        const memory = gpu.memory_total_bytes ? `${formatBytes(gpu.memory_used_bytes)} of ${formatBytes(gpu.memory_total_bytes)}` : '';
        return (
          <div key={gpu.index}>
            <Gauge label={`GPU ${gpu.index}`} percent={gpu.utilization_percent} text={`${formatPercent(gpu.utilization_percent)} ${memory}`} />
            <p class="hint">{describeGpu(gpu.name, more)}</p>
          </div>
        );
      })}
    </div>
  );
}

/** CPU, memory and GPU load of the machine the service runs on. */
export function LoadPanel({ stats, gpu, error }: { stats: Stats | undefined; gpu: GpuDetails | undefined; error: string | undefined }) {
  return (
    <section class="panel" aria-labelledby="system-load">
      <h2 id="system-load">Load</h2>
      <ErrorNote error={error} />
      {stats ? (
        <>
          <Cpu cpu={stats.cpu} />
          <Memory memory={stats.memory} />
          <Gpus stats={stats.gpus} details={gpu} />
        </>
      ) : (
        <p class="hint">Reading…</p>
      )}
    </section>
  );
}
