import { useEffect, useState } from 'preact/hooks';
import { api, ok, type Schemas } from '../../api.js';
import { ErrorNote } from '../../components/notice.js';
import { useTask } from '../../components/use-task.js';
import { ForDevelopers } from '../../components/for-developers.js';
import { hrefOf } from '../../routes.js';
import { METHOD_NAMES } from './clone-options.js';
import { CloneVerdict, NotCloserWarning, verdictOf } from './clone-verdict.js';
import { CLONE_METHODS } from './request.js';

type Voice = Schemas['Voice'];

const percent = (value: number | null) => (value === null ? 'not measured' : `${Math.round(value * 100)} %`);
const methodName = (method: string | null) => CLONE_METHODS.find((known) => known === method);

/** The new voice as GET /api/voices/{id} shows it: how alike and how clear it is, whether it beats the nearest preset, its warnings, a preview. */
export function CloneResult({ voiceId }: { voiceId: string }) {
  const [voice, setVoice] = useState<Voice | undefined>();
  const [preview, setPreview] = useState<string | undefined>();
  const loading = useTask();
  const previewing = useTask();

  useEffect(() => {
    setVoice(undefined);
    void loading.run(async () => setVoice(await ok(api.GET('/api/voices/{id}', { params: { path: { id: voiceId } } }))));
  }, [voiceId]);
  useEffect(() => () => (preview ? URL.revokeObjectURL(preview) : undefined), [preview]);

  const makePreview = () =>
    previewing.run(async () => {
      const audio = await ok(api.POST('/api/voices/{id}/generate-preview', { params: { path: { id: voiceId } }, body: {}, parseAs: 'blob' }));
      setPreview(URL.createObjectURL(audio));
    });

  if (!voice) return <ErrorNote error={loading.error} />;
  const method = methodName(voice.clone_method);
  return (
    <section class="panel clone-result" aria-label="New voice">
      <h2>{voice.name}</h2>
      <dl class="figures">
        <dt>Method</dt>
        <dd>{method ? METHOD_NAMES[method] : 'unknown'}</dd>
        <dt>Similarity</dt>
        <dd>
          {percent(voice.similarity)}
          {voice.baseline_similarity !== null ? <span class="hint"> · nearest ready-made voice: {percent(voice.baseline_similarity)}</span> : null}
        </dd>
        <dt>Intelligibility</dt>
        <dd>
          {percent(voice.intelligibility)}
          {voice.baseline_intelligibility !== null ? <span class="hint"> · voice it was made from: {percent(voice.baseline_intelligibility)}</span> : null}
        </dd>
      </dl>
      <CloneVerdict voice={voice} />
      {voice.warnings.length > 0 || verdictOf(voice) === 'not_closer' ? (
        <ul class="warnings" aria-label="Warnings">
          <NotCloserWarning voice={voice} />
          {voice.warnings.map((warning, i) => (
            <li key={i}>{warning.message}</li>
          ))}
        </ul>
      ) : (
        <p class="hint">No warnings about the samples or the result.</p>
      )}
      <div class="row">
        <button type="button" onClick={() => void makePreview()} disabled={previewing.busy}>
          {previewing.busy ? 'Making a preview…' : 'Make a preview'}
        </button>
        <a class="button-link" href={hrefOf('speak', { voice: voice.id })}>
          Speak with this voice
        </a>
      </div>
      {preview ? <audio controls src={preview} aria-label={`Preview of ${voice.name}`} /> : null}
      <ErrorNote error={previewing.error} />
      <ForDevelopers>
        <dl class="figures">
          <dt>Voice id</dt>
          <dd>
            <code>{voice.id}</code>
          </dd>
          <dt>Method</dt>
          <dd>
            <code>{voice.clone_method}</code> {typeof voice.settings.method_reason === 'string' ? voice.settings.method_reason : null}
          </dd>
          <dt>Measures</dt>
          <dd>
            similarity <code>{voice.similarity_measure ?? '—'}</code>, intelligibility <code>{voice.intelligibility_measure ?? '—'}</code>
          </dd>
          <dt>Warning codes</dt>
          <dd>{voice.warnings.map((warning) => warning.code).join(', ') || '—'}</dd>
        </dl>
      </ForDevelopers>
    </section>
  );
}
