import { formatBytes, formatTime } from './format.js';
import type { Storage } from './types.js';

type KeyStorage = Storage['keys'][number];

function quotaWords(quota: number | null): string {
  return quota === null ? 'no limit' : formatBytes(quota);
}

function expiringWords({ expiring }: KeyStorage): string {
  if (expiring.tasks === 0) return 'nothing';
  const tasks = expiring.tasks === 1 ? '1 task' : `${expiring.tasks} tasks`;
  return `${tasks}, ${formatBytes(expiring.bytes)}, first at ${formatTime(expiring.next_at)}`;
}

function KeyRow({ entry }: { entry: KeyStorage }) {
  const full = entry.quota_bytes !== null && entry.used_bytes >= entry.quota_bytes;
  return (
    <tr>
      <th scope="row">{entry.name}</th>
      <td class={full ? 'state-bad' : undefined}>
        {formatBytes(entry.used_bytes)} of {quotaWords(entry.quota_bytes)}
        {full ? ' — full: new work is refused' : ''}
      </td>
      <td>{expiringWords(entry)}</td>
    </tr>
  );
}

/** How much each of your keys keeps on disk against its quota, and what the retention will delete within a day. */
export function StoragePanel({ storage }: { storage: Storage }) {
  const retention =
    storage.retention_days === 0
      ? 'Finished tasks are kept until you delete them.'
      : `Finished tasks outside a project are deleted ${storage.retention_days} days after their last change.`;
  return (
    <section class="panel" aria-labelledby="system-storage">
      <h2 id="system-storage">Storage</h2>
      <p class="hint">
        {retention} A key without its own quota may keep {quotaWords(storage.quota_default_bytes)}.
      </p>
      <div class="table-scroll" tabIndex={0} role="region" aria-label="Storage per key table">
        <table aria-label="Storage per key">
          <thead>
            <tr>
              <th scope="col">Key</th>
              <th scope="col">Kept</th>
              <th scope="col">Deleted within a day</th>
            </tr>
          </thead>
          <tbody>
            {storage.keys.map((entry) => (
              <KeyRow key={entry.key_id} entry={entry} />
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
