import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Config } from '../platform/config.js';
import { ApiError } from '../platform/errors.js';
import { CatalogError, DEFAULT_MODELS, findModel } from '../platform/models/catalog.js';
import { describeProblems } from '../platform/models/files.js';
import { modelLoads } from '../platform/engines/registry.js';
import { installModel, type InstallResult } from '../platform/models/install.js';
import { listModels, removeModel, type ModelStatus } from '../platform/models/manager.js';

interface ModelsOptions {
  /** --from; falls back to TIMBRE_MODELS_FROM. */
  from: string | undefined;
  defaults: boolean;
  acceptChanged: boolean;
  json: boolean;
}

type Outcome = InstallResult | { name: string; engine: string; status: 'failed'; message: string };

function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(1)} ${units[unit]}`;
}

/**
 * Download progress on stderr: a redrawn bar on a terminal, otherwise one plain line per 10 %
 * (or per 10 MiB when the size is unknown) so CI logs stay readable.
 */
function progressReporter(name: string, stream: NodeJS.WriteStream = process.stderr) {
  let lastStep = -1;
  let drawn = false;
  const update = (received: number, total: number | null) => {
    const fraction = total ? Math.min(received / total, 1) : null;
    const amount = `${formatBytes(received)}${total ? ` / ${formatBytes(total)}` : ''}`;
    if (stream.isTTY) {
      const step = fraction === null ? Math.floor(received / (1 << 20)) : Math.floor(fraction * 100);
      if (step === lastStep) return;
      lastStep = step;
      const bar = fraction === null ? '' : `[${'#'.repeat(Math.round(fraction * 30)).padEnd(30, '.')}] ${String(step).padStart(3)}%  `;
      stream.write(`\r${name}  ${bar}${amount}\x1b[K`);
      drawn = true;
      return;
    }
    const step = fraction === null ? Math.floor(received / (10 << 20)) : Math.floor(fraction * 10);
    if (step === lastStep) return;
    lastStep = step;
    stream.write(`${name}: ${fraction === null ? '' : `${step * 10}% `}${amount}\n`);
  };
  /** Ends the bar's line, so that what follows starts on a line of its own. */
  const done = () => {
    if (drawn) stream.write('\n');
    drawn = false;
  };
  return { update, done };
}

function describeStatus({ model, state, sizeBytes, problems, languages }: ModelStatus): string {
  const size = state === 'not installed' ? '-' : formatBytes(sizeBytes);
  const line = `${model.name.padEnd(30)} ${state.padEnd(14)} ${size.padStart(10)}  ${model.engine.padEnd(18)} ${model.license.padEnd(11)} ${languages.join(' ')}`;
  return problems.length > 0 ? `${line}\n${' '.repeat(31)}${describeProblems(problems)}` : line;
}

function statusJson({ model, state, sizeBytes, problems, languages }: ModelStatus) {
  return {
    name: model.name,
    engine: model.engine,
    kind: model.kind,
    state,
    size_bytes: sizeBytes,
    license: model.license,
    license_note: model.licenseNote ?? null,
    languages,
    default: DEFAULT_MODELS.includes(model.name),
    missing_files: problems.map((problem) => problem.path),
    description: model.description,
  };
}

function describeOutcome(outcome: Outcome): string {
  switch (outcome.status) {
    case 'installed':
      return `✓ ${outcome.name} installed in ${outcome.path} (from ${outcome.source}; ${outcome.verification === 'unverified' ? 'UNVERIFIED' : `${outcome.verification} verified`})`;
    case 'incomplete':
      return `! ${outcome.message}`;
    case 'failed':
      return `✗ ${outcome.name}: ${outcome.message}`;
  }
}

async function installOne(config: Config, name: string, from: string | undefined, acceptChanged: boolean): Promise<Outcome> {
  const progress = progressReporter(name);
  const warn = (message: string) => {
    progress.done();
    process.stderr.write(`! ${message}\n`);
  };
  try {
    return await installModel(config.modelsDir, name, { from, acceptChanged, validate: modelLoads, onProgress: progress.update, onWarning: warn });
  } catch (error) {
    return { name, engine: findModel(name).engine, status: 'failed', message: (error as Error).message };
  } finally {
    progress.done();
  }
}

/** Installs the named models (or the default set), one after the other, reporting each. */
async function install(config: Config, names: string[], options: ModelsOptions): Promise<number> {
  const chosen = options.defaults ? [...new Set([...DEFAULT_MODELS, ...names])] : names;
  if (chosen.length === 0) throw new ApiError(400, 'invalid_request', 'models install needs model names or --defaults');
  chosen.forEach((name) => findModel(name));
  const from = options.from ?? (process.env.TIMBRE_MODELS_FROM || undefined);
  // A mistyped folder would otherwise show up as every model being "not in" it.
  if (from && !(await stat(from).catch(() => undefined))?.isDirectory()) {
    throw new ApiError(400, 'invalid_request', `${options.from ? '--from' : 'TIMBRE_MODELS_FROM'}: ${resolve(from)} is not a folder`);
  }
  const outcomes: Outcome[] = [];
  for (const name of chosen) {
    const outcome = await installOne(config, name, from, options.acceptChanged);
    outcomes.push(outcome);
    if (!options.json) (outcome.status === 'failed' ? process.stderr : process.stdout).write(`${describeOutcome(outcome)}\n`);
  }
  if (options.json) process.stdout.write(`${JSON.stringify({ models_dir: config.modelsDir, from: from ?? null, results: outcomes })}\n`);
  // An incomplete model in the source folder is expected for the default set (../shared/models
  // lacks some weights); a model asked for by name that cannot be installed is a failure.
  const failed = outcomes.some((outcome) => outcome.status === 'failed' || (outcome.status === 'incomplete' && names.includes(outcome.name)));
  return failed ? 1 : 0;
}

/** `timbre models list | install | remove`: the catalog of neural models and what is installed. */
export async function modelsCommand(config: Config, args: string[], options: ModelsOptions): Promise<number> {
  const [action, ...names] = args;
  try {
    switch (action) {
      case 'list': {
        const statuses = await listModels(config.modelsDir);
        if (options.json) process.stdout.write(`${JSON.stringify(statuses.map(statusJson))}\n`);
        else process.stdout.write(`Models in ${config.modelsDir}\n${statuses.map(describeStatus).join('\n')}\n`);
        return 0;
      }
      case 'install':
        return await install(config, names, options);
      case 'remove': {
        if (names.length === 0) throw new ApiError(400, 'invalid_request', 'models remove needs NAME');
        names.forEach((name) => findModel(name));
        for (const name of names) {
          const removed = await removeModel(config.modelsDir, name);
          process.stdout.write(removed ? `Removed ${name}\n` : `${name} was not installed\n`);
        }
        return 0;
      }
      default:
        throw new ApiError(400, 'invalid_request', `Unknown models action "${action ?? ''}": use list, install or remove`);
    }
  } catch (error) {
    // Unknown model names are usage errors, like unknown scopes in `keys`.
    if (error instanceof CatalogError) throw new ApiError(400, 'invalid_request', error.message);
    throw error;
  }
}
