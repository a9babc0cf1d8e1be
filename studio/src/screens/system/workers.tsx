import { ErrorNote } from '../../components/notice.js';
import { formatDuration, formatTime } from './format.js';
import type { Status } from './types.js';

type Workers = NonNullable<Status['workers']>;
type Worker = Workers['workers'][number];

const QUEUE_DOWN = 'The queue (Redis) does not answer: work that needs an engine is refused until it is back.';

/** The id repeats the host name, shown in its own column: the rest is what tells two workers of one machine apart. */
function shortId(worker: Worker): string {
  return worker.id.startsWith(`${worker.host}-`) ? worker.id.slice(worker.host.length + 1) : worker.id;
}

/** Against the browser's clock: the studio runs next to the service, and a second of skew does not matter here. */
function ago(iso: string): string {
  return `${formatDuration(Math.max(0, (Date.now() - Date.parse(iso)) / 1000))} ago`;
}

function WorkerRow({ worker }: { worker: Worker }) {
  return (
    <tr>
      <th scope="row">{worker.host}</th>
      <td>
        <code title={worker.id}>{shortId(worker)}</code>
      </td>
      <td>{worker.engines.join(', ')}</td>
      <td>{worker.slots}</td>
      <td>{worker.running}</td>
      <td>{worker.completed}</td>
      <td>
        <span title={formatTime(worker.last_seen)}>{ago(worker.last_seen)}</span>
      </td>
    </tr>
  );
}

function Waiting({ waiting }: { waiting: Workers['waiting'] }) {
  const queued = Object.entries(waiting).filter(([, count]) => count > 0);
  if (queued.length === 0) return <p class="hint">No calls waiting.</p>;
  return <p>Calls waiting: {queued.map(([engine, count]) => `${engine} ${count}`).join(', ')}.</p>;
}

function LiveWorkers({ workers }: { workers: Workers }) {
  if (workers.workers.length === 0) return <p class="state-bad">No worker is live: nothing can be synthesized until one starts (npx timbre worker).</p>;
  return (
    <div class="table-scroll" tabIndex={0} role="region" aria-label="Workers table">
      <table aria-label="Workers">
        <thead>
          <tr>
            <th scope="col">Host</th>
            <th scope="col">Id</th>
            <th scope="col">Engines</th>
            <th scope="col">Slots</th>
            <th scope="col">Running</th>
            <th scope="col">Completed</th>
            <th scope="col">Last seen</th>
          </tr>
        </thead>
        <tbody>
          {workers.workers.map((worker) => (
            <WorkerRow key={worker.id} worker={worker} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** With the service scaled out through Redis: the machines that run engine calls, and the calls waiting for one. */
export function WorkersPanel({ workers }: { workers: Workers }) {
  return (
    <section class="panel" aria-labelledby="system-workers">
      <h2 id="system-workers">Workers</h2>
      <ErrorNote error={workers.connected ? undefined : QUEUE_DOWN} />
      {workers.connected ? (
        <>
          <LiveWorkers workers={workers} />
          <Waiting waiting={workers.waiting} />
        </>
      ) : null}
    </section>
  );
}
