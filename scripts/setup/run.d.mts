/** Types for run.mjs, which `timbre setup` (src/cli/main.ts) imports. */
export function runSetup(options: { checkout: boolean }): number;
