import { useCallback, useEffect, useState } from 'preact/hooks';
import { api, ok, type Schemas } from '../../api.js';
import { Field } from '../../components/field.js';
import { ForDevelopers } from '../../components/for-developers.js';
import { ErrorNote } from '../../components/notice.js';
import { useTask } from '../../components/use-task.js';
import { hrefOf } from '../../routes.js';
import { useDebounced } from './use-debounced.js';
import { whenWords } from '../../components/task-words.js';
import { projectContents } from './words.js';

type ProjectSummary = Schemas['ProjectSummary'];

/** How long typing in the search must pause before it is sent (ms), and how many projects a page holds. */
const SEARCH_DELAY = 300;
const PAGE = 20;

/** A new project, named; it opens at once. */
function NewProject() {
  const [name, setName] = useState('');
  const { busy, error, run } = useTask();
  const create = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      const project = await ok(api.POST('/api/projects', { body: { name: name.trim() } }));
      location.hash = hrefOf('projects', { project: project.project_id });
    });
  };
  return (
    <form class="row project-new" onSubmit={create} aria-label="New project">
      <Field label="Name of the new project">
        {(id) => <input id={id} value={name} maxLength={200} required onInput={(event) => setName(event.currentTarget.value)} />}
      </Field>
      <button type="submit" class="primary" disabled={busy || !name.trim()}>
        New project
      </button>
      <ErrorNote error={error} />
    </form>
  );
}

/** The key's projects, most recently changed first, searched by name and script as one types. */
export function ProjectList() {
  const [query, setQuery] = useState('');
  const search = useDebounced(query.trim(), SEARCH_DELAY);
  const [projects, setProjects] = useState<ProjectSummary[]>();
  const [next, setNext] = useState<string | null>(null);
  const { busy, error, run } = useTask();

  const load = useCallback(
    (cursor?: string) =>
      run(async () => {
        const filters = { limit: PAGE, ...(search ? { q: search } : {}), ...(cursor ? { cursor } : {}) };
        const page = await ok(api.GET('/api/projects', { params: { query: filters } }));
        setProjects((before) => (cursor ? [...(before ?? []), ...page.projects] : page.projects));
        setNext(page.next_cursor);
      }),
    [run, search],
  );
  useEffect(() => void load(), [load]);

  return (
    <section class="panel" aria-labelledby="project-list-title">
      <h2 id="project-list-title">Your projects</h2>
      <NewProject />
      <Field label="Search projects">
        {(id) => (
          <input id={id} type="search" value={query} placeholder="Words in a name or a script" onInput={(event) => setQuery(event.currentTarget.value)} />
        )}
      </Field>
      <ErrorNote error={error} />
      {projects?.length === 0 ? (
        <p class="hint">{search ? `No project has “${search}” in its name or script.` : 'No projects yet. Name one above to start.'}</p>
      ) : null}
      <ul class="project-cards" aria-label="Projects" aria-busy={busy}>
        {(projects ?? []).map((project) => (
          <li key={project.project_id} class="project-card">
            <a href={hrefOf('projects', { project: project.project_id })}>{project.name}</a>
            <span class="hint">{projectContents(project)}</span>
            <span class="hint">Changed {whenWords(project.updated_at)}</span>
          </li>
        ))}
      </ul>
      {next ? (
        <button type="button" disabled={busy} onClick={() => void load(next)}>
          Show more projects
        </button>
      ) : null}
      <ForDevelopers>
        <p>
          <code>{`GET /api/projects?q=…&limit=${PAGE}`}</code> (most recently changed first, <code>next_cursor</code> pages on), <code>POST /api/projects</code>{' '}
          with <code>{'{"name"}'}</code>.
        </p>
      </ForDevelopers>
    </section>
  );
}
