import { ApiError } from '../../platform/errors.js';
import type { PronunciationDictionary } from '../../platform/text/pronunciation/index.js';
import { newId } from '../../platform/util/ids.js';
import { readPls } from './pls-read.js';
import { plsDocument } from './pls-write.js';
import type { DictionaryRecord, DictionarySummary, PronunciationRepository } from './repository.js';
import { appliedRule, storedRules } from './rules.js';
import type { PronunciationRuleInput, StoredRule } from './schemas.js';

export interface PronunciationDeps {
  dictionaries: PronunciationRepository;
  /** The key and every key created beneath it: a dictionary belongs to its creator and the keys above it. */
  keysBelow(keyId: string): string[];
  /** TIMBRE_PRONUNCIATION_MAX_RULES */
  maxRules: number;
  /** TIMBRE_PRONUNCIATION_MAX_DICTIONARIES */
  maxDictionaries: number;
}

const now = () => new Date().toISOString();

/** The name a PLS import gets when the request names none. */
export const IMPORTED_NAME = 'Imported lexicon';

/**
 * Pronunciation dictionaries: rules that say a written form as other words or as sounds, kept per
 * key line, applied by synthesis in the order a request, its project and its voice name them.
 */
export class PronunciationService {
  /** Each dictionary as speaking applies it, kept while it is unchanged (the applier compiles each object once). */
  private readonly applied = new Map<string, { updatedAt: string; dictionary: PronunciationDictionary }>();

  constructor(private readonly deps: PronunciationDeps) {}

  list(keyId: string): DictionarySummary[] {
    return this.deps.dictionaries.list(this.deps.keysBelow(keyId));
  }

  /** The caller's dictionary (or one of a key beneath it); any other does not exist for the caller. */
  owned(id: string, keyId: string): DictionaryRecord {
    const dictionary = this.deps.dictionaries.get(id);
    if (!dictionary || !this.visible(dictionary.ownerKeyId, keyId)) throw notFound(id);
    return dictionary;
  }

  create(body: { name: string; language: string; rules: PronunciationRuleInput[] }, keyId: string): DictionaryRecord {
    return this.insert(body.name, body.language, storedRules(body.rules, this.deps.maxRules, { kind: 'json' }), keyId);
  }

  /** A new dictionary from a PLS document: its language is the lexicon's xml:lang. */
  importPls(document: string, name: string | undefined, keyId: string): DictionaryRecord {
    const lexicon = readPls(document, this.deps.maxRules);
    return this.insert(name ?? IMPORTED_NAME, lexicon.language, storedRules(lexicon.rules, this.deps.maxRules, { kind: 'pls', lines: lexicon.lines }), keyId);
  }

  update(record: DictionaryRecord, changes: { name?: string; language?: string; rules?: PronunciationRuleInput[] }): DictionaryRecord {
    const rules = changes.rules === undefined ? undefined : storedRules(changes.rules, this.deps.maxRules, { kind: 'json' });
    return this.save(record, { name: changes.name?.trim(), language: changes.language, rules });
  }

  /** Replaces the dictionary's rules with a PLS document's; its name and language stay. */
  updateFromPls(record: DictionaryRecord, document: string): DictionaryRecord {
    const lexicon = readPls(document, this.deps.maxRules);
    return this.save(record, { rules: storedRules(lexicon.rules, this.deps.maxRules, { kind: 'pls', lines: lexicon.lines }) });
  }

  delete(record: DictionaryRecord): void {
    this.deps.dictionaries.delete(record.id);
    this.applied.delete(record.id);
  }

  view(record: DictionaryRecord) {
    return { ...summaryView(record), rules: record.rules };
  }

  pls(record: DictionaryRecord): string {
    return plsDocument(record);
  }

  /** Checks a voice's or project's defaults as the caller sets them: each visible to the caller, at most the maximum. */
  checkedDefaults(ids: readonly string[], keyId: string): string[] {
    this.checkCount(ids.length);
    for (const id of ids) this.owned(id, keyId);
    return [...ids];
  }

  /**
   * The dictionaries a request applies, in order (its own ids, then the project's, then the
   * voice's), each once. The request's own must be visible to the caller (else 404
   * `pronunciation_not_found`); defaults were checked when they were set and apply to whoever
   * speaks with that voice or in that project. More than the maximum is 400 `too_many_dictionaries`.
   */
  dictionariesFor(ids: { request?: readonly string[]; projectId?: string | null; voiceId?: string }, callerKeyId: string): PronunciationDictionary[] {
    const requested = ids.request ?? [];
    for (const id of requested) {
      const owner = this.deps.dictionaries.updatedAt(id);
      if (!owner || !this.visible(owner.ownerKeyId, callerKeyId)) throw notFound(id);
    }
    const projectDefaults = ids.projectId ? this.deps.dictionaries.defaultsOf('projects', ids.projectId) : [];
    const voiceDefaults = ids.voiceId === undefined ? [] : this.deps.dictionaries.defaultsOf('voices', ids.voiceId);
    const all = [...new Set([...requested, ...projectDefaults, ...voiceDefaults])];
    this.checkCount(all.length);
    return all.flatMap((id) => this.appliedDictionary(id) ?? []);
  }

  summary(record: DictionarySummary) {
    return summaryView(record);
  }

  private insert(name: string, language: string, rules: StoredRule[], keyId: string): DictionaryRecord {
    const at = now();
    const record = { id: newId('pron'), ownerKeyId: keyId, name: name.trim(), language, rules, ruleCount: rules.length, createdAt: at, updatedAt: at };
    this.deps.dictionaries.insert(record);
    return record;
  }

  private save(record: DictionaryRecord, changes: Parameters<PronunciationRepository['update']>[1]): DictionaryRecord {
    this.deps.dictionaries.update(record.id, changes, now());
    this.applied.delete(record.id);
    return this.deps.dictionaries.get(record.id) ?? record;
  }

  private appliedDictionary(id: string): PronunciationDictionary | undefined {
    const current = this.deps.dictionaries.updatedAt(id);
    if (!current) return undefined;
    const kept = this.applied.get(id);
    if (kept?.updatedAt === current.updatedAt) return kept.dictionary;
    const record = this.deps.dictionaries.get(id);
    if (!record) return undefined;
    const dictionary = { id, language: record.language, rules: record.rules.map(appliedRule) };
    this.applied.set(id, { updatedAt: record.updatedAt, dictionary });
    return dictionary;
  }

  private checkCount(count: number): void {
    if (count > this.deps.maxDictionaries) {
      throw new ApiError(
        400,
        'too_many_dictionaries',
        `${count} pronunciation dictionaries; at most ${this.deps.maxDictionaries} apply at once (TIMBRE_PRONUNCIATION_MAX_DICTIONARIES)`,
        { count, max_dictionaries: this.deps.maxDictionaries },
      );
    }
  }

  private visible(ownerKeyId: string | null, keyId: string): boolean {
    return ownerKeyId !== null && this.deps.keysBelow(keyId).includes(ownerKeyId);
  }
}

function notFound(id: string): ApiError {
  return new ApiError(404, 'pronunciation_not_found', `No pronunciation dictionary ${id}`, { pronunciation_id: id });
}

function summaryView(record: DictionarySummary) {
  return {
    id: record.id,
    name: record.name,
    language: record.language,
    rule_count: record.ruleCount,
    created_at: record.createdAt,
    updated_at: record.updatedAt,
  };
}
