import { api, ok, type Schemas } from '../../api.js';

type Voice = Schemas['Voice'];

const PAGE = 500;

/** Every voice of the library, clearest first: the service's order is the one to choose a voice by. */
export async function loadVoices(): Promise<Voice[]> {
  const voices: Voice[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const page = await ok(api.GET('/api/voices', { params: { query: { sort: 'quality', limit: PAGE, offset } } }));
    voices.push(...page.voices);
    if (voices.length >= page.total || page.voices.length === 0) return voices;
  }
}
