import type { ComponentChildren } from 'preact';
import { ErrorNote, Warnings } from '../../components/notice.js';
import { JobProgress } from '../../components/job-progress.js';
import { hrefOf } from '../../routes.js';
import { QualitySummary } from './quality.js';
import type { PreviewPlayer } from './use-preview-player.js';
import { elementId, languageName, measuredTagNote, TYPE_LABELS, type Voice } from './voice-text.js';

interface VoiceCardProps {
  voice: Voice;
  player: PreviewPlayer;
  expanded: boolean;
  onExpand: () => void;
  onFavorite: () => void;
  favoriteBusy: boolean;
  /** The details panel, shown under the card's actions when expanded. */
  children?: ComponentChildren;
}

/** One voice of the library: what it is, a Play button for its sample, favorite, a way to speak with it and its details. */
export function VoiceCard({ voice, player, expanded, onExpand, onFavorite, favoriteBusy, children }: VoiceCardProps) {
  const nameId = elementId('voice-name', voice.id);
  const detailsId = elementId('voice-details', voice.id);
  const loading = player.loadingId === voice.id;
  const playing = player.playing?.voiceId === voice.id ? player.playing : undefined;
  const failure = player.failure?.voiceId === voice.id ? player.failure.message : undefined;
  const meta = [TYPE_LABELS[voice.type], voice.engine, languageName(voice.language), voice.gender ?? undefined].filter((part) => part !== undefined);

  return (
    <li class={expanded ? 'voice-card expanded' : 'voice-card'} aria-labelledby={nameId} data-voice-id={voice.id}>
      <div class="voice-head">
        <h2 id={nameId}>{voice.name}</h2>
        <button type="button" class="favorite" aria-pressed={voice.favorite} aria-label={`Favorite ${voice.name}`} disabled={favoriteBusy} onClick={onFavorite}>
          {voice.favorite ? '★' : '☆'}
        </button>
      </div>
      <p class="voice-meta">{meta.join(' · ')}</p>
      {voice.available ? null : <p class="error">Its engine or voice is no longer installed here.</p>}
      {voice.description ? <p class="voice-description">{voice.description}</p> : null}
      <ul class="chips" aria-label={`Category and tags of ${voice.name}`}>
        {voice.category ? <li class="category">{voice.category}</li> : null}
        {voice.tags.map((tag) => (
          <li key={`own-${tag}`}>{tag}</li>
        ))}
        {voice.library_tags
          .filter((tag) => !voice.tags.includes(tag))
          .map((tag) => (
            <li key={`library-${tag}`} class="library" title={measuredTagNote(voice, tag)}>
              {tag}
            </li>
          ))}
      </ul>
      <QualitySummary measures={voice} />
      <Warnings warnings={voice.warnings.map((warning) => warning.message)} />
      <div class="row voice-actions">
        <button type="button" onClick={() => void player.play(voice)} disabled={loading || !voice.available} aria-label={`Play a sample of ${voice.name}`}>
          {loading ? 'Loading…' : '▶ Play'}
        </button>
        <a href={hrefOf('speak', { voice: voice.id })} aria-describedby={nameId}>
          Speak with this voice
        </a>
        <button type="button" aria-expanded={expanded} aria-controls={detailsId} onClick={onExpand} aria-label={`Details of ${voice.name}`}>
          Details
        </button>
      </div>
      {loading ? <JobProgress label={`Making the sample of ${voice.name}`} job={player.job} /> : null}
      <ErrorNote error={failure} />
      {playing ? (
        <div class="voice-player">
          <audio controls autoPlay src={playing.src} aria-label={`Sample of ${voice.name}`} />
        </div>
      ) : null}
      {expanded ? (
        <div id={detailsId} class="voice-details">
          {children}
        </div>
      ) : null}
    </li>
  );
}
