/**
 * The ids of the built-in synthesizers (Debian packages, on every machine after set-up), in a module
 * of their own so that settings can name them without loading the engines.
 * test/unit/platform/engines/builtin-synthesizers.test.ts holds it equal to the registry's.
 */
export const BUILTIN_SYNTHESIZER_IDS = ['pico', 'espeak', 'festival', 'flite', 'openjtalk', 'rhvoice'] as const;
