import { useCallback, useEffect, useState } from 'preact/hooks';
import type { paths } from '../../../../src/client/schema.js';
import { api, ok } from '../../api.js';
import { ForDevelopers } from '../../components/for-developers.js';
import { isFinished, JobProgress, nextJobState, type JobState } from '../../components/job-progress.js';
import { ErrorNote } from '../../components/notice.js';
import { useTask } from '../../components/use-task.js';
import { isJobEvent, useEvents } from '../../events.js';
import { formatBytes } from './format.js';

type CatalogModel = paths['/api/models']['get']['responses'][200]['content']['application/json']['models'][number];

const KIND_WORDS: Record<string, string> = {
  synthesizer: 'speaks text',
  recognizer: 'recognizes speech',
  voiceprint: 'compares voices',
  vad: 'finds speech in audio',
};

/** A job as the list reports it, until its `/ws` events say more. */
const listedJob = (install: NonNullable<CatalogModel['install']>): JobState => ({
  status: install.state === 'running' ? 'running' : 'queued',
  progress: install.progress,
  stage: install.stage,
});

function ModelRow({
  model,
  job,
  busy,
  onInstall,
  onCancel,
  onRemove,
}: {
  model: CatalogModel;
  job: JobState | undefined;
  busy: boolean;
  onInstall: () => void;
  onCancel: () => void;
  onRemove: () => void;
}) {
  const installing = model.install !== null && !isFinished(job?.status);
  const size = model.installed
    ? formatBytes(model.size_bytes)
    : model.download_bytes === null
      ? 'size not known'
      : `${formatBytes(model.download_bytes)} to download`;
  return (
    <li class="model-row" data-model={model.id}>
      <div>
        <strong>{model.name}</strong> <span class="hint">({KIND_WORDS[model.kind] ?? model.kind})</span>
        <div class="hint">
          {size} · license {model.license} · {model.languages.includes('*') ? 'any language' : model.languages.join(', ')}
        </div>
        {installing ? <JobProgress label={`Installing ${model.name}`} job={job ?? listedJob(model.install!)} /> : null}
      </div>
      <div class="row">
        {model.installed ? <span class="state-ok">Installed</span> : model.state === 'incomplete' ? <span class="state-bad">Incomplete</span> : null}
        {installing ? (
          <button type="button" onClick={onCancel} disabled={busy}>
            Cancel
          </button>
        ) : model.installed ? (
          <button type="button" onClick={onRemove} disabled={busy}>
            Remove
          </button>
        ) : (
          <button type="button" onClick={onInstall} disabled={busy}>
            Install
          </button>
        )}
      </div>
    </li>
  );
}

/** The neural model catalog: install a model (progress live from /ws), cancel an install, remove a model. */
export function ModelsPanel() {
  const [models, setModels] = useState<CatalogModel[]>();
  const [jobs, setJobs] = useState<Record<string, JobState>>({});
  const load = useTask();
  const action = useTask();
  const refresh = useCallback(() => void load.run(async () => setModels((await ok(api.GET('/api/models'))).models)), [load.run]);
  useEffect(refresh, [refresh]);

  useEvents((message) => {
    if (!isJobEvent(message) || message.data.kind !== 'model-install') return;
    const jobId = message.data.job_id;
    setJobs((previous) => ({ ...previous, [jobId]: nextJobState(previous[jobId], message) }));
    if (isFinished(nextJobState(undefined, message).status)) refresh();
  });

  const install = (model: CatalogModel) =>
    void action.run(async () => {
      await ok(api.POST('/api/models/{model_id}/install', { params: { path: { model_id: model.id } } }));
      refresh();
    });
  const cancel = (jobId: string) =>
    void action.run(async () => {
      await ok(api.POST('/api/job/cancel', { body: { job_id: jobId } }));
      refresh();
    });
  const remove = (model: CatalogModel) =>
    void action.run(async () => {
      await ok(api.DELETE('/api/models/{model_id}', { params: { path: { model_id: model.id } } }));
      refresh();
    });

  return (
    <section class="panel" aria-labelledby="system-models">
      <h2 id="system-models">Neural models</h2>
      <p class="hint">
        Install a model to add its voices or abilities; remove one to free its disk space. Downloads come from the official model releases and are checked
        before use.
      </p>
      <ErrorNote error={load.error ?? action.error} />
      {models ? (
        <ul class="model-list" aria-label="Neural models">
          {models.map((model) => (
            <ModelRow
              key={model.id}
              model={model}
              job={model.install ? jobs[model.install.job_id] : undefined}
              busy={action.busy}
              onInstall={() => install(model)}
              onCancel={() => model.install && cancel(model.install.job_id)}
              onRemove={() => remove(model)}
            />
          ))}
        </ul>
      ) : (
        <p class="hint">Reading…</p>
      )}
      <ForDevelopers>
        <p>
          <code>GET /api/models</code> lists the catalog; <code>POST /api/models/{'{model_id}'}/install</code> (scope <code>models:manage</code>) starts a{' '}
          <code>model-install</code> job whose <code>job.progress</code> events carry <code>downloaded_bytes</code> and <code>total_bytes</code>;{' '}
          <code>POST /api/job/cancel</code> stops it; <code>DELETE /api/models/{'{model_id}'}</code> removes a model.
        </p>
      </ForDevelopers>
    </section>
  );
}
