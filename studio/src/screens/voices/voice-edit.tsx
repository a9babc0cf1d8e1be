import { useState } from 'preact/hooks';
import { api, ok, type Schemas } from '../../api.js';
import { ErrorNote } from '../../components/notice.js';
import { useTask } from '../../components/use-task.js';
import { Field } from '../../components/field.js';
import { isCustom, type Voice } from './voice-text.js';

interface VoiceEditFormProps {
  voice: Voice;
  categories: Schemas['Category'][];
  onSaved: (voice: Voice) => void;
  onCategoryCreated: () => void;
}

/** Tags as a person types them: "calm, narrator" — empty pieces dropped. */
function tagList(text: string): string[] {
  return [
    ...new Set(
      text
        .split(',')
        .map((tag) => tag.trim())
        .filter((tag) => tag.length > 0),
    ),
  ];
}

/**
 * The metadata PUT /api/voices/{id} changes. A preset keeps the name and description its engine
 * gives it (the service refuses changing them), so only its category and tags are offered.
 */
export function VoiceEditForm({ voice, categories, onSaved, onCategoryCreated }: VoiceEditFormProps) {
  const task = useTask();
  const custom = isCustom(voice);
  const [name, setName] = useState(voice.name);
  const [description, setDescription] = useState(voice.description ?? '');
  const [category, setCategory] = useState(voice.category ?? '');
  const [newCategory, setNewCategory] = useState('');
  const [tags, setTags] = useState(voice.tags.join(', '));
  const [saved, setSaved] = useState(false);

  const save = () =>
    task.run(async () => {
      setSaved(false);
      let categoryName: string | null = category || null;
      const creating = newCategory.trim() !== '';
      if (creating) {
        categoryName = (await ok(api.POST('/api/categories', { body: { name: newCategory.trim() } }))).name;
        setCategory(categoryName);
        setNewCategory('');
      }
      const body = { ...(custom ? { name: name.trim(), description: description.trim() || null } : {}), category: categoryName, tags: tagList(tags) };
      onSaved(await ok(api.PUT('/api/voices/{id}', { params: { path: { id: voice.id } }, body })));
      setSaved(true);
      // Read after the change, so the reloaded library already holds it.
      if (creating) onCategoryCreated();
    });

  return (
    <form
      class="voice-edit"
      aria-label={`Edit ${voice.name}`}
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      {custom ? (
        <>
          <Field label="Name">{(id) => <input id={id} value={name} required maxLength={100} onInput={(event) => setName(event.currentTarget.value)} />}</Field>
          <Field label="Description">
            {(id) => <textarea id={id} class="short" value={description} onInput={(event) => setDescription(event.currentTarget.value)} />}
          </Field>
        </>
      ) : (
        <p class="hint">A preset keeps the name and description of its engine; its category and tags are yours.</p>
      )}
      <div class="row">
        <Field label="Category">
          {(id) => (
            <select id={id} value={category} onChange={(event) => setCategory(event.currentTarget.value)}>
              <option value="">No category</option>
              {categories
                .filter((entry) => !entry.built_in)
                .map((entry) => (
                  <option key={entry.id} value={entry.name}>
                    {entry.name}
                  </option>
                ))}
            </select>
          )}
        </Field>
        <Field label="or a new category">
          {(id) => <input id={id} value={newCategory} maxLength={60} onInput={(event) => setNewCategory(event.currentTarget.value)} />}
        </Field>
      </div>
      <Field label="Tags (separated by commas)">{(id) => <input id={id} value={tags} onInput={(event) => setTags(event.currentTarget.value)} />}</Field>
      <div class="row">
        <button type="submit" class="primary" disabled={task.busy}>
          Save changes
        </button>
        {saved ? <span role="status">Saved.</span> : null}
      </div>
      <ErrorNote error={task.error} />
    </form>
  );
}
