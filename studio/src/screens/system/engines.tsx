import { ErrorNote } from '../../components/notice.js';
import { formatBytes } from './format.js';
import type { Engine, Model } from './types.js';

function EngineRow({ engine, loaded }: { engine: Engine; loaded: boolean }) {
  return (
    <tr>
      <th scope="row">{engine.id}</th>
      <td>{engine.kind}</td>
      <td>{engine.neural ? 'neural' : 'classic'}</td>
      <td>
        {engine.available ? <span class="state-ok">available</span> : <span class="state-bad">missing</span>}
        {loaded ? <span class="badge">loaded</span> : null}
        {engine.reason ? <div class="hint">{engine.reason}</div> : null}
      </td>
    </tr>
  );
}

function ModelRow({ model }: { model: Model }) {
  return (
    <tr>
      <th scope="row">{model.name}</th>
      <td>{model.engine}</td>
      <td>{model.kind}</td>
      <td>{model.languages.join(', ')}</td>
      <td>{formatBytes(model.size_bytes)}</td>
      <td>{model.license}</td>
      <td>
        {model.complete ? <span class="state-ok">installed</span> : <span class="state-bad">incomplete</span>}
        {model.missing_files.length > 0 ? <div class="hint">Missing: {model.missing_files.join(', ')}</div> : null}
      </td>
    </tr>
  );
}

/** Which engines can run here and which model files are installed, as the service probes them. */
export function EnginesPanel({
  engines,
  models,
  loadedEngines,
  error,
}: {
  engines: readonly Engine[] | undefined;
  models: readonly Model[] | undefined;
  loadedEngines: readonly string[];
  error: string | undefined;
}) {
  const knownEngines = engines ?? [];
  const knownModels = models ?? [];
  const available = knownEngines.filter((engine) => engine.available).length;
  return (
    <section class="panel" aria-labelledby="system-engines">
      <h2 id="system-engines">Engines and models</h2>
      <ErrorNote error={error} />
      {engines ? (
        <p class="hint">
          {available} of {knownEngines.length} engines can run here. A neural engine needs its model files: <code>npx timbre models list</code> shows the
          catalog, <code>npx timbre models install NAME</code> installs one.
        </p>
      ) : null}
      <div class="table-scroll" tabIndex={0} role="region" aria-label="Engines table">
        <table aria-label="Engines">
          <thead>
            <tr>
              <th scope="col">Engine</th>
              <th scope="col">Kind</th>
              <th scope="col">Type</th>
              <th scope="col">State</th>
            </tr>
          </thead>
          <tbody>
            {knownEngines.map((engine) => (
              <EngineRow key={engine.id} engine={engine} loaded={loadedEngines.includes(engine.id)} />
            ))}
          </tbody>
        </table>
      </div>
      <h3>Installed models</h3>
      {models && knownModels.length === 0 ? <p class="hint">No model files are installed.</p> : null}
      {knownModels.length > 0 ? (
        <div class="table-scroll" tabIndex={0} role="region" aria-label="Installed models table">
          <table aria-label="Installed models">
            <thead>
              <tr>
                <th scope="col">Model</th>
                <th scope="col">Engine</th>
                <th scope="col">Kind</th>
                <th scope="col">Languages</th>
                <th scope="col">Size</th>
                <th scope="col">License</th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              {knownModels.map((model) => (
                <ModelRow key={model.name} model={model} />
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}
