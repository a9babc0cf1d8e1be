import { fileURLToPath } from 'node:url';

/** `../shared/models` beside the checkout: the model files this machine and CI have (never committed). */
export const SHARED_MODELS = process.env.TIMBRE_SHARED_MODELS ?? fileURLToPath(new URL('../../../shared/models', import.meta.url));

export const REFERENCE_AUDIO = `${SHARED_MODELS}/pocket-tts/reference`;

/** The checkout's root, for tests that name files of the repository (sources loaded in a child, docs). */
export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
