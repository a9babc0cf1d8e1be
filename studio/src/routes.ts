/** The studio's screens, in the order of the navigation; the hash (`#/speak`) names the one shown, Projects when it names none. */
export const SCREENS = [
  { path: 'projects', label: 'Projects' },
  { path: 'voices', label: 'Voices' },
  { path: 'speak', label: 'Speak' },
  { path: 'pronunciations', label: 'Pronunciations' },
  { path: 'clone', label: 'Clone' },
  { path: 'design', label: 'Design' },
  { path: 'long-form', label: 'Long-form' },
  { path: 'timeline', label: 'Timeline' },
  { path: 'transcribe', label: 'Transcribe' },
  { path: 'system', label: 'System' },
  { path: 'keys', label: 'Keys' },
] as const;

export type ScreenPath = (typeof SCREENS)[number]['path'];

/** The screen and its parameters from a hash like `#/timeline?task=task_…`. */
export function parseHash(hash: string): { screen: ScreenPath; params: URLSearchParams } {
  const [path = '', query = ''] = hash.replace(/^#\/?/, '').split('?');
  const screen = SCREENS.find((candidate) => candidate.path === path)?.path ?? 'projects';
  return { screen, params: new URLSearchParams(query) };
}

export function hrefOf(screen: ScreenPath, params: Record<string, string> = {}): string {
  const query = new URLSearchParams(params).toString();
  return `#/${screen}${query ? `?${query}` : ''}`;
}
