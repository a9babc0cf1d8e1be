import { EnginesPanel } from './system/engines.js';
import { LoadPanel } from './system/load.js';
import { ModelsPanel } from './system/models.js';
import { QueuePanel } from './system/queue.js';
import { ServicePanel } from './system/service.js';
import { StoragePanel } from './system/storage.js';
import { useSystem } from './system/use-system.js';
import { WorkersPanel } from './system/workers.js';
import './system/system.css';

/** The machine and the service at a glance: load, the workers when scaled out through Redis, engines and models, and this key's jobs (cancellable), kept live. */
export function SystemScreen() {
  const { stats, info, status, gpu, queue, refreshAll } = useSystem();
  const loadedEngines = status.data?.engine_host?.loaded_engines ?? [];
  return (
    <div class="system-screen">
      <div class="row">
        <p class="hint">Refreshed every 5 seconds while this page is visible, and at once when one of your jobs changes.</p>
        <button type="button" onClick={refreshAll}>
          Refresh now
        </button>
      </div>
      <div class="system-grid">
        <LoadPanel stats={stats.data} gpu={gpu.data} error={stats.error ?? gpu.error} />
        <ServicePanel info={info.data} status={status.data} error={status.error} />
      </div>
      {status.data?.workers ? <WorkersPanel workers={status.data.workers} /> : null}
      {status.data?.storage ? <StoragePanel storage={status.data.storage} /> : null}
      <QueuePanel queue={queue.data} error={queue.error} onChanged={() => void queue.refresh()} />
      <EnginesPanel engines={info.data?.engines} models={info.data?.models} loadedEngines={loadedEngines} error={info.error} />
      <ModelsPanel />
    </div>
  );
}
