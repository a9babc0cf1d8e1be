import type { ComponentChildren } from 'preact';
import { ErrorNote } from '../../components/notice.js';
import { formatBytes, formatDuration, formatTime } from './format.js';
import type { Info, Status } from './types.js';

function Fact({ term, children }: { term: string; children: ComponentChildren }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}

function Database({ database }: { database: Status['database'] }) {
  if (!database.ok) return <span class="error">{database.error ?? 'cannot be read'}</span>;
  return (
    <>
      {formatBytes(database.size_bytes)}, schema {database.schema_version ?? '—'}, journal {database.journal_mode ?? '—'}
    </>
  );
}

/** The service process, the machine and the data directory: what an operator checks first. */
export function ServicePanel({ info, status, error }: { info: Info | undefined; status: Status | undefined; error: string | undefined }) {
  const host = status?.engine_host;
  const storage = status?.storage;
  return (
    <section class="panel" aria-labelledby="system-service">
      <h2 id="system-service">Service</h2>
      <ErrorNote error={error} />
      <dl class="facts">
        {status ? (
          <>
            <Fact term="Status">
              <span class={status.status === 'ok' ? 'state-ok' : 'state-bad'}>{status.status}</span>
            </Fact>
            <Fact term="Up for">
              <span title={formatTime(status.started_at)}>{formatDuration(status.uptime_seconds)}</span>
            </Fact>
            <Fact term="Process">
              pid {status.process.pid}, {formatBytes(status.process.rss_bytes)} resident
            </Fact>
            <Fact term="Data directory">
              <code>{status.data_dir.path}</code> — {formatBytes(status.data_dir.free_bytes)} free of {formatBytes(status.data_dir.total_bytes)}
            </Fact>
            <Fact term="Database">
              <Database database={status.database} />
            </Fact>
          </>
        ) : null}
        {host ? (
          <Fact term="Engine hosts">
            {host.hosts_running} of {host.pool_size} running, {host.busy} busy, {host.queued} waiting, {host.restarts} restarts
          </Fact>
        ) : null}
        {storage && storage.pending_writes > 0 ? <Fact term="Writes waiting for disk space">{storage.pending_writes}</Fact> : null}
        {info ? (
          <>
            <Fact term="Versions">
              Timbre {info.versions.timbre}, Node {info.versions.node}
            </Fact>
            <Fact term="System">
              {info.os.distro} {info.os.release} ({info.os.arch}), kernel {info.os.kernel}, host {info.os.hostname}
            </Fact>
            <Fact term="Processor">
              {info.cpu.model}, {info.cpu.cores} cores
            </Fact>
          </>
        ) : null}
      </dl>
    </section>
  );
}
