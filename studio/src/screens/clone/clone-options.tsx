import type { Availability } from './method-availability.js';
import { CLONE_METHODS, type CloneMethod, type CloneOptions } from './request.js';

export const METHOD_NAMES: Record<CloneMethod, string> = {
  zero_shot: 'Zero-shot (the sample’s own voice)',
  voice_search: 'Voice search (blend of presets)',
  timbre_match: 'Timbre match (fitted built-in voice)',
};

function isMethod(value: string): value is CloneMethod {
  return CLONE_METHODS.some((method) => method === value);
}

/**
 * The new voice's name, language and what the create routes let a person choose. A method this
 * machine cannot run is shown disabled with what it needs.
 */
export function CloneOptionsFields({
  options,
  availability,
  onChange,
}: {
  options: CloneOptions;
  availability: Availability | undefined;
  onChange: (options: CloneOptions) => void;
}) {
  const set = (change: Partial<CloneOptions>) => onChange({ ...options, ...change });
  return (
    <div class="row clone-options">
      <label for="clone-name">
        Name
        <input id="clone-name" required maxLength={100} value={options.name} onInput={(event) => set({ name: event.currentTarget.value })} />
      </label>
      <label for="clone-language">
        Language
        <input id="clone-language" size={8} placeholder="en" value={options.language} onInput={(event) => set({ language: event.currentTarget.value })} />
      </label>
      <label for="clone-method">
        Method
        <select
          id="clone-method"
          value={options.method}
          onChange={(event) => {
            const value = event.currentTarget.value;
            set({ method: isMethod(value) ? value : '' });
          }}
        >
          <option value="">Best available here</option>
          {CLONE_METHODS.map((method) => (
            <option key={method} value={method} disabled={availability?.[method].available === false}>
              {METHOD_NAMES[method]}
              {availability?.[method].needs ? ` — ${availability[method].needs}` : ''}
            </option>
          ))}
        </select>
      </label>
      <label for="clone-gender">
        Gender
        <select
          id="clone-gender"
          value={options.gender}
          onChange={(event) => {
            const value = event.currentTarget.value;
            set({ gender: value === 'female' || value === 'male' ? value : '' });
          }}
        >
          <option value="">Not given</option>
          <option value="female">Female</option>
          <option value="male">Male</option>
        </select>
      </label>
      <label for="clone-description" class="grow">
        Description (optional)
        <input id="clone-description" value={options.description} onInput={(event) => set({ description: event.currentTarget.value })} />
      </label>
    </div>
  );
}
