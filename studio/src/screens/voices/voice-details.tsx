import type { Schemas } from '../../api.js';
import { designOf, MeasuredFacts, measuredOf, UnderstoodAttributes } from './design-attributes.js';
import { QualityFacts } from './quality.js';
import { DeleteVoice } from './voice-delete.js';
import { VoiceEditForm } from './voice-edit.js';
import { isCustom, languageName, type Voice } from './voice-text.js';

interface VoiceDetailsProps {
  voice: Voice;
  categories: Schemas['Category'][];
  onSaved: (voice: Voice) => void;
  onDeleted: (voiceId: string) => void;
  onCategoryCreated: () => void;
}

const CLONE_METHODS: Record<NonNullable<Voice['clone_method']>, string> = {
  zero_shot: 'zero-shot (a neural engine speaks from the reference)',
  voice_search: 'voice search (a blend of voices)',
  timbre_match: 'timbre match (a preset fitted to the speaker)',
};

/** Everything the record says about a voice, its measures, and what may be changed about it. */
export function VoiceDetails({ voice, categories, onSaved, onDeleted, onCategoryCreated }: VoiceDetailsProps) {
  const design = voice.type === 'design' ? designOf(voice.settings) : undefined;
  const nearest = typeof voice.settings.nearest_preset === 'string' ? voice.settings.nearest_preset : undefined;
  const sampleSeconds = voice.samples.reduce((sum, sample) => sum + sample.duration, 0);
  return (
    <>
      <dl class="facts">
        <dt>Id</dt>
        <dd>
          <code>{voice.id}</code>
        </dd>
        <dt>Languages</dt>
        <dd>{voice.languages.map(languageName).join(', ')}</dd>
        {voice.license ? (
          <>
            <dt>License</dt>
            <dd>{voice.license}</dd>
          </>
        ) : null}
        {voice.sample_rate ? (
          <>
            <dt>Sample rate</dt>
            <dd>{voice.sample_rate} Hz</dd>
          </>
        ) : null}
        {voice.clone_method ? (
          <>
            <dt>Made by</dt>
            <dd>{CLONE_METHODS[voice.clone_method]}</dd>
          </>
        ) : null}
        {voice.samples.length > 0 ? (
          <>
            <dt>Samples</dt>
            <dd>
              {voice.samples.length} ({sampleSeconds.toFixed(1)} s)
            </dd>
          </>
        ) : null}
        {(design?.baseVoice ?? nearest) ? (
          <>
            <dt>{design ? 'Base voice' : 'Nearest preset'}</dt>
            <dd>{design?.baseVoice ?? nearest}</dd>
          </>
        ) : null}
        {isCustom(voice) ? (
          <>
            <dt>Created</dt>
            <dd>{new Date(voice.created_at).toLocaleString()}</dd>
          </>
        ) : null}
      </dl>
      {design ? <UnderstoodAttributes understood={design.understood} ignored={design.ignored} caption="What its description was read as" /> : null}
      <MeasuredFacts measured={measuredOf(voice.settings.measured)} />
      <QualityFacts measures={voice} />
      <VoiceEditForm voice={voice} categories={categories} onSaved={onSaved} onCategoryCreated={onCategoryCreated} />
      {isCustom(voice) ? <DeleteVoice voice={voice} onDeleted={onDeleted} /> : null}
    </>
  );
}
