import { ApiError } from '../../platform/errors.js';
import { newId } from '../../platform/util/ids.js';
import type { CategoryRecord, CategoryRepository } from './category-repository.js';
import { LIBRARY_CATEGORIES } from './library-tags.js';
import type { VoiceRepository } from './voice-repository.js';

/** A category as listed: a user's (stored) or a built-in one (derived from the kind of each voice, see library-tags.ts). */
export interface CategoryEntry extends Omit<CategoryRecord, 'createdAt'> {
  createdAt: string | null;
  builtIn: boolean;
}

const BUILT_IN_PREFIX = 'library:';

const builtInEntries = Object.entries(LIBRARY_CATEGORIES).map(([key, name]) => ({ id: `${BUILT_IN_PREFIX}${key}`, name }));

function builtInNamed(name: string): { id: string; name: string } | undefined {
  return builtInEntries.find((entry) => entry.name.toLowerCase() === name.toLowerCase());
}

export function publicCategory(category: CategoryEntry) {
  return { id: category.id, name: category.name, built_in: category.builtIn, created_at: category.createdAt, voice_count: category.voiceCount };
}

const userEntry = (category: CategoryRecord): CategoryEntry => ({ ...category, builtIn: false });

/**
 * The categories of the library: those users create (stored, assignable to a voice) and the
 * built-in ones every voice is in by its kind, listed when they hold a voice. Names are unique
 * across both, regardless of case.
 */
export class VoiceCategories {
  constructor(
    private readonly categories: CategoryRepository,
    private readonly voices: Pick<VoiceRepository, 'libraryCategoryCounts'>,
  ) {}

  list(): CategoryEntry[] {
    const counts = this.voices.libraryCategoryCounts();
    const builtIn = builtInEntries.flatMap(({ id, name }) => {
      const voiceCount = counts.get(name) ?? 0;
      return voiceCount > 0 ? [{ id, name, createdAt: null, voiceCount, builtIn: true }] : [];
    });
    return [...builtIn, ...this.categories.list().map(userEntry)];
  }

  create(name: string): CategoryEntry {
    const existing = this.categories.findByName(name) ?? builtInNamed(name);
    if (existing) throw new ApiError(409, 'category_exists', `A category named ${existing.name} exists`, { category_id: existing.id, name: existing.name });
    const id = newId('cat');
    this.categories.insert({ id, name, createdAt: new Date().toISOString() });
    return userEntry(this.categories.findById(id)!);
  }

  delete(id: string): void {
    if (id.startsWith(BUILT_IN_PREFIX)) {
      throw new ApiError(403, 'category_built_in', `${id} is a built-in category: it groups voices by kind and cannot be deleted`, { category_id: id });
    }
    if (!this.categories.delete(id)) throw new ApiError(404, 'category_not_found', `No category ${id}`, { category_id: id });
  }

  /** A user's category by name (built-in ones are not assignable). */
  find(name: string): CategoryRecord | undefined {
    return this.categories.findByName(name);
  }

  /** A user's category to assign; a built-in name or an unknown one is a 400. */
  named(name: string): CategoryRecord {
    const category = this.find(name);
    if (category) return category;
    const builtIn = builtInNamed(name);
    if (builtIn) {
      throw new ApiError(400, 'category_built_in', `${builtIn.name} is a built-in category: voices are in it by their kind, it cannot be assigned`, {
        category: name,
      });
    }
    throw new ApiError(400, 'category_not_found', `No category named ${name}; create it with POST /api/categories`, { category: name });
  }

  /** A filter's category: a built-in id becomes its name, which the voice list matches against each voice's built-in category. */
  filterValue(category: string): string {
    return builtInEntries.find((entry) => entry.id === category)?.name ?? category;
  }
}
