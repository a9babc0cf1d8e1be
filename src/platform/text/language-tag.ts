/** The primary subtag of a BCP 47 tag, lower-cased (`pt-BR` → `pt`, `en_US` → `en`): what language rules and voice matching go by. */
export function primaryLanguage(tag: string): string {
  return tag.split(/[-_]/)[0]!.toLowerCase();
}
