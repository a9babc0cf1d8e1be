import { useEffect, useState } from 'preact/hooks';
import { api, ok, type Schemas } from '../../api.js';
import { ErrorNote } from '../../components/notice.js';
import { useTask } from '../../components/use-task.js';
import { hrefOf } from '../../routes.js';

type Voice = Schemas['Voice'];

const percent = (value: number | null) => (value === null ? 'not measured' : `${Math.round(value * 100)} %`);
const measuredBy = (measure: string | null) => (measure ? ` (${measure})` : '');

/** The new voice as GET /api/voices/{id} shows it: how alike and how clear it is, its warnings, a preview. */
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
  return (
    <section class="panel clone-result" aria-label="New voice">
      <h2>{voice.name}</h2>
      <dl class="figures">
        <dt>Voice id</dt>
        <dd>
          <code>{voice.id}</code>
        </dd>
        <dt>Method</dt>
        <dd>
          {voice.clone_method ?? 'unknown'}
          {typeof voice.settings.method_reason === 'string' ? <span class="hint"> — {voice.settings.method_reason}</span> : null}
        </dd>
        <dt>Similarity</dt>
        <dd>
          {percent(voice.similarity)}
          {measuredBy(voice.similarity_measure)}
          {voice.baseline_similarity !== null ? <span class="hint"> · nearest preset, unconverted: {percent(voice.baseline_similarity)}</span> : null}
        </dd>
        <dt>Intelligibility</dt>
        <dd>
          {percent(voice.intelligibility)}
          {measuredBy(voice.intelligibility_measure)}
          {voice.baseline_intelligibility !== null ? <span class="hint"> · voice it was made from: {percent(voice.baseline_intelligibility)}</span> : null}
        </dd>
      </dl>
      {voice.warnings.length > 0 ? (
        <ul class="warnings" aria-label="Warnings">
          {voice.warnings.map((warning, i) => (
            <li key={i}>
              <code>{warning.code}</code> {warning.message}
            </li>
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
    </section>
  );
}
