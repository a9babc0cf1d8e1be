import { readFileSync } from 'node:fs';
import { BUILT_IN } from './catalog-entries.js';
import type { CatalogModel } from './catalog-types.js';

/**
 * The models Timbre knows how to install: where each official archive lives, what it must hold,
 * and the size and sha256 of each file where they are known. An installed model is
 * `<modelsDir>/<name>/` holding the archive's files under their official names.
 *
 * Verification policy: a known size or sha256 is always checked. Archives that sherpa-onnx
 * re-uploads under the same name (Kokoro) are pinned by the files inside rather than by their
 * bytes, so a repacked archive with the same files still installs, and a changed file is named in
 * the refusal. Where no trustworthy pin exists (`null`) the model is still installed, because the
 * default set needs it, but the installer warns that it is unverified and prints the sha256 it
 * got. Files of unknown size are checked for presence and, for `.onnx`, for an ONNX header.
 */

export type { CatalogArchive, CatalogFile, CatalogModel, EngineKind, FilePin } from './catalog-types.js';
export { BASE_URL, DEFAULT_MODELS } from './catalog-entries.js';

/** Test-only: a JSON file of entries (same shape) whose URLs may be http://127.0.0.1; an entry named like a built-in one replaces it. */
export const TEST_CATALOG_ENV = 'TIMBRE_MODELS_TEST_CATALOG';

export class CatalogError extends Error {}

const NAME = /^[a-z0-9][a-z0-9._-]*$/;
const SHA256 = /^[0-9a-f]{64}$/;

/** A path relative to a model folder that cannot leave it. */
function isSafeRelativePath(path: string): boolean {
  return path !== '' && !path.startsWith('/') && path.split('/').every((part) => part !== '' && part !== '.' && part !== '..');
}

/** The problems of one entry (empty when sound): every path the installer builds comes from these fields. */
export function entryProblems(model: CatalogModel): string[] {
  const problems: string[] = [];
  if (!NAME.test(model.name ?? '')) problems.push(`name "${model.name}" must match ${NAME}`);
  if (!isSafeRelativePath(model.sharedPath ?? '')) problems.push(`sharedPath "${model.sharedPath}" is not a safe relative path`);
  if (model.archive?.rootDir !== undefined && !isSafeRelativePath(model.archive.rootDir)) problems.push(`rootDir "${model.archive.rootDir}" is not safe`);
  if (!/^https?:\/\//.test(model.archive?.url ?? '')) problems.push('archive.url must be an http(s) URL');
  if (!Array.isArray(model.files) || model.files.length === 0) problems.push('files must list at least one file');
  for (const file of [...(model.files ?? []), ...(model.extras ?? [])]) {
    if (!isSafeRelativePath(file.path)) problems.push(`file path "${file.path}" is not safe`);
    for (const pin of [file, ...(file.alternatives ?? [])])
      if (pin.sha256 !== null && !SHA256.test(pin.sha256)) problems.push(`${file.path}: sha256 must be 64 lowercase hex digits`);
  }
  for (const path of [...(model.optional ?? []), ...Object.values(model.languageFiles ?? {}).flat()])
    if (!isSafeRelativePath(path)) problems.push(`path "${path}" is not safe`);
  for (const extra of model.extras ?? []) {
    if (!/^https?:\/\//.test(extra.url)) problems.push(`${extra.path}: url must be an http(s) URL`);
    if (!model.files.some((file) => file.path === extra.path)) problems.push(`${extra.path}: an extra must also be listed in files`);
  }
  if (model.archive?.sha256 != null && !SHA256.test(model.archive.sha256)) problems.push('archive.sha256 must be 64 lowercase hex digits');
  return problems;
}

function testEntries(env: NodeJS.ProcessEnv): CatalogModel[] {
  const file = env[TEST_CATALOG_ENV];
  return file ? (JSON.parse(readFileSync(file, 'utf8')) as CatalogModel[]) : [];
}

/** Every installable model; entries from the test catalog are validated like the built-in ones. */
export function catalog(env: NodeJS.ProcessEnv = process.env): CatalogModel[] {
  const tests = testEntries(env);
  const replaced = (model: CatalogModel) => tests.find((entry) => entry.name === model.name) ?? model;
  const models = [...BUILT_IN.map(replaced), ...tests.filter((entry) => !BUILT_IN.some((model) => model.name === entry.name))];
  for (const model of models) {
    const problems = entryProblems(model);
    if (problems.length > 0) throw new CatalogError(`Catalog entry "${model.name}": ${problems.join('; ')}`);
  }
  return models;
}

/** True when http:// to a loopback address is allowed: only while a test catalog is in use. */
export function testMode(env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(env[TEST_CATALOG_ENV]);
}

/** The languages of `model` whose extra files `hasFile` finds (all of them when it needs none). */
export function spokenLanguages(model: Pick<CatalogModel, 'languages' | 'languageFiles'>, hasFile: (path: string) => boolean): string[] {
  return model.languages.filter((language) => (model.languageFiles?.[language] ?? []).every(hasFile));
}

/** The catalog entry for a name given by a user; anything else is refused before touching files. */
export function findModel(name: string, env: NodeJS.ProcessEnv = process.env): CatalogModel {
  const model = catalog(env).find((entry) => entry.name === name);
  if (!model)
    throw new CatalogError(
      `Unknown model "${name}". Known models: ${catalog(env)
        .map((entry) => entry.name)
        .join(', ')}`,
    );
  return model;
}
