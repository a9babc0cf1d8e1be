import { useEffect, useState } from 'preact/hooks';
import { api, ok } from '../api.js';
import { ErrorNote } from '../components/notice.js';
import { useTask } from '../components/use-task.js';
import { ExportVoices } from './voices/export-voices.js';
import { ImportVoices } from './voices/import-voices.js';
import { usePreviewPlayer } from './voices/use-preview-player.js';
import { NO_FILTERS, useVoiceLibrary, type VoiceFilterValues } from './voices/use-voice-library.js';
import { VoiceCard } from './voices/voice-card.js';
import { VoiceDetails } from './voices/voice-details.js';
import { VoiceFilters } from './voices/voice-filters.js';
import type { Voice } from './voices/voice-text.js';
import './voices/voices.css';

/** How long the search box waits for typing to stop before asking the service. */
const SEARCH_PAUSE_MS = 250;

/**
 * The voice library: presets of every engine, clones and designs, searched and filtered; each
 * voice with a sample to play, favorite, details and metadata, and archives of clones and designs. The
 * list comes clearest first, the service's default order.
 */
export function VoicesScreen() {
  const [filters, setFilters] = useState<VoiceFilterValues>(NO_FILTERS);
  const [search, setSearch] = useState('');
  const [expandedId, setExpandedId] = useState<string | undefined>();
  const [favoriteBusy, setFavoriteBusy] = useState<string | undefined>();
  const library = useVoiceLibrary(filters);
  const actions = useTask();

  useEffect(() => {
    const timer = setTimeout(() => setFilters((current) => (current.q === search ? current : { ...current, q: search })), SEARCH_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [search]);

  const player = usePreviewPlayer();

  const toggleFavorite = (voice: Voice) =>
    actions.run(async () => {
      setFavoriteBusy(voice.id);
      try {
        const { favorite } = await ok(api.POST('/api/favorites/{id}', { params: { path: { id: voice.id } } }));
        library.replace({ ...voice, favorite });
      } finally {
        setFavoriteBusy(undefined);
      }
    });

  const deleted = (voiceId: string) => {
    if (player.playing?.voiceId === voiceId) player.stop();
    setExpandedId(undefined);
    library.reload();
  };

  const shown = library.shown;
  const filtered = search !== '' || JSON.stringify(filters) !== JSON.stringify(NO_FILTERS);
  return (
    <div class="voices-screen">
      <VoiceFilters values={filters} search={search} onSearch={setSearch} onChange={setFilters} catalog={library.catalog} categories={library.categories} />
      <div class="row voices-summary">
        <p role="status" class="hint">
          {shown === undefined ? 'Loading voices…' : `${shown.length} of ${library.catalog.length} voices`}
        </p>
        {filtered ? (
          <button
            type="button"
            onClick={() => {
              setSearch('');
              setFilters(NO_FILTERS);
            }}
          >
            Clear filters
          </button>
        ) : null}
      </div>
      <details class="voice-archives">
        <summary>Import or export voices</summary>
        <div class="voice-archive-panels">
          <ExportVoices catalog={library.catalog} />
          <ImportVoices onImported={library.reload} />
        </div>
      </details>
      <ErrorNote error={library.error ?? actions.error} />
      {shown?.length === 0 ? <p>No voice matches these filters.</p> : null}
      <ul class="voice-grid" aria-label="Voices">
        {shown?.map((voice) => (
          <VoiceCard
            key={voice.id}
            voice={voice}
            player={player}
            expanded={expandedId === voice.id}
            onExpand={() => setExpandedId(expandedId === voice.id ? undefined : voice.id)}
            onFavorite={() => void toggleFavorite(voice)}
            favoriteBusy={favoriteBusy === voice.id}
          >
            {expandedId === voice.id ? (
              <VoiceDetails voice={voice} categories={library.categories} onSaved={library.replace} onDeleted={deleted} onCategoryCreated={library.reload} />
            ) : null}
          </VoiceCard>
        ))}
      </ul>
    </div>
  );
}
