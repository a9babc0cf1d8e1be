import { useState } from 'preact/hooks';
import { Field } from '../../components/field.js';
import type { operations } from '../../../../src/client/schema.js';

export type DesignBody = operations['createDesign']['requestBody']['content']['application/json'];
type Gender = NonNullable<DesignBody['gender']>;
type Age = NonNullable<DesignBody['age']>;

const GENDERS: readonly Gender[] = ['female', 'male'];
const AGES: readonly Age[] = ['child', 'young', 'adult', 'old'];

const isGender = (value: string): value is Gender => GENDERS.some((gender) => gender === value);
const isAge = (value: string): value is Age => AGES.some((age) => age === value);

/** A number field left empty means "as the description says". */
function optionalNumber(text: string): number | undefined {
  if (text.trim() === '') return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : undefined;
}

interface DesignFormProps {
  designing: boolean;
  onDesign: (body: DesignBody) => void;
  onCancel: () => void;
}

/** The description in words, and the attributes a person may set outright (they win over the words). */
export function DesignForm({ designing, onDesign, onCancel }: DesignFormProps) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [language, setLanguage] = useState('en');
  const [gender, setGender] = useState('');
  const [age, setAge] = useState('');
  const [accent, setAccent] = useState('');
  const [pitch, setPitch] = useState('');
  const [pace, setPace] = useState('');
  const [seed, setSeed] = useState('');

  const submit = () => {
    const steps = { pitch: optionalNumber(pitch), pace: optionalNumber(pace), seed: optionalNumber(seed) };
    onDesign({
      name: name.trim(),
      description: description.trim(),
      ...(language.trim() ? { language: language.trim() } : {}),
      ...(isGender(gender) ? { gender } : {}),
      ...(isAge(age) ? { age } : {}),
      ...(accent.trim() ? { accent: accent.trim() } : {}),
      ...(steps.pitch !== undefined ? { pitch: steps.pitch } : {}),
      ...(steps.pace !== undefined ? { pace: steps.pace } : {}),
      ...(steps.seed !== undefined ? { seed: steps.seed } : {}),
    });
  };

  return (
    <form
      class="design-form"
      aria-label="Design a voice"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <Field label="Name of the voice">
        {(id) => <input id={id} value={name} required maxLength={100} placeholder="Calm narrator" onInput={(event) => setName(event.currentTarget.value)} />}
      </Field>
      <Field label="Description">
        {(id) => (
          <textarea
            id={id}
            class="short"
            value={description}
            required
            maxLength={1000}
            placeholder="A calm, deep male voice, slightly slow, British"
            onInput={(event) => setDescription(event.currentTarget.value)}
          />
        )}
      </Field>
      <p class="hint">
        Understood: gender, age, accent, pitch (deep, high), pace (slow, fast), energy (calm, lively), brightness (warm, bright) and breathiness, with “very”,
        “slightly” and “not” — in English, German, French, Spanish, Italian, Portuguese and Dutch.
      </p>
      <details>
        <summary>More options</summary>
        <div class="row design-options">
          <Field label="Language">{(id) => <input id={id} value={language} size={6} onInput={(event) => setLanguage(event.currentTarget.value)} />}</Field>
          <Field label="Gender">
            {(id) => (
              <select id={id} value={gender} onChange={(event) => setGender(event.currentTarget.value)}>
                <option value="">As described</option>
                <option value="female">Female</option>
                <option value="male">Male</option>
              </select>
            )}
          </Field>
          <Field label="Age">
            {(id) => (
              <select id={id} value={age} onChange={(event) => setAge(event.currentTarget.value)}>
                <option value="">As described</option>
                {AGES.map((each) => (
                  <option key={each} value={each}>
                    {each}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label="Accent (e.g. en-GB)">
            {(id) => (
              <input id={id} value={accent} size={8} pattern="[A-Za-z]{2,3}-[A-Za-z0-9]{2,8}" onInput={(event) => setAccent(event.currentTarget.value)} />
            )}
          </Field>
          <Field label="Pitch steps (−2 … 2)">
            {(id) => <input id={id} type="number" min={-2} max={2} step={0.5} value={pitch} onInput={(event) => setPitch(event.currentTarget.value)} />}
          </Field>
          <Field label="Pace steps (−2 … 2)">
            {(id) => <input id={id} type="number" min={-2} max={2} step={0.5} value={pace} onInput={(event) => setPace(event.currentTarget.value)} />}
          </Field>
          <Field label="Seed">
            {(id) => <input id={id} type="number" min={0} step={1} value={seed} onInput={(event) => setSeed(event.currentTarget.value)} />}
          </Field>
        </div>
      </details>
      <div class="row">
        <button type="submit" class="primary" disabled={designing}>
          Design the voice
        </button>
        <button type="button" disabled={!designing} onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
