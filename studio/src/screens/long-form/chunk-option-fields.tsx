/** The fields of the options every chunked route takes, as typed (empty: the service's default). */
export interface ChunkOptionText {
  speed: string;
  seed: string;
  maxChars: string;
}

export const NO_OPTIONS: ChunkOptionText = { speed: '', seed: '', maxChars: '' };

/** Speed, seed (one for every chunk, so the voice does not drift) and the longest chunk, shown as the longest part of a sentence. */
export function ChunkOptionFields({ value, onChange }: { value: ChunkOptionText; onChange: (value: ChunkOptionText) => void }) {
  const field = (name: keyof ChunkOptionText) => (event: { currentTarget: HTMLInputElement }) => onChange({ ...value, [name]: event.currentTarget.value });
  return (
    <div class="row">
      <label for="lf-speed">
        Speed
        <input id="lf-speed" type="number" min={0.5} max={2} step={0.05} placeholder="1" value={value.speed} onInput={field('speed')} />
      </label>
      <label for="lf-seed">
        Seed
        <input id="lf-seed" type="number" min={0} step={1} placeholder="random" value={value.seed} onInput={field('seed')} />
      </label>
      <label for="lf-max-chars">
        Longest part (characters)
        <input id="lf-max-chars" type="number" min={20} max={5000} step={1} placeholder="400" value={value.maxChars} onInput={field('maxChars')} />
      </label>
    </div>
  );
}
