/**
 * The shape of the code (docs/architecture.md): features over a platform layer, a composition root
 * on top. `npm run lint` fails on any dependency these rules forbid.
 * @type {import('dependency-cruiser').IConfiguration}
 */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'A file must not reach itself through its imports.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'no-folder-cycles',
      severity: 'error',
      comment: 'Two folders must not import each other, directly or through others.',
      scope: 'folder',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'platform-knows-no-feature',
      severity: 'error',
      comment: 'The platform layer serves every capability and depends on none of them (nor on the composition root).',
      from: { path: '^src/platform/' },
      to: { path: '^src/(features|app|cli)/' },
    },
    {
      name: 'features-meet-at-entry-points',
      severity: 'error',
      comment: 'A capability uses another only through what that one declares in its index.ts.',
      from: { path: '^src/(features/([^/]+)|app|cli)/' },
      to: { path: '^src/features/', pathNot: ['^src/features/$2/', '^src/features/[^/]+/index\\.ts$'] },
    },
    {
      name: 'features-reach-no-root',
      severity: 'error',
      comment: 'Capabilities are wired together by the composition root, never the other way round.',
      from: { path: '^src/features/' },
      to: { path: '^src/(app|cli)/' },
    },
    {
      name: 'client-stands-alone',
      severity: 'error',
      comment: 'The shipped client (timbre/client) runs in applications: it imports nothing of the service.',
      from: { path: '^src/client/' },
      to: { path: '^src/', pathNot: '^src/client/' },
    },
    {
      name: 'studio-speaks-only-http',
      severity: 'error',
      comment: 'The studio runs in the browser: it reaches the service through the shipped client and HTTP, never its code.',
      from: { path: '^studio/' },
      to: { path: '^(src|test|bench|scripts)/', pathNot: '^src/client/' },
    },
    {
      name: 'nothing-reaches-the-studio',
      severity: 'error',
      comment: 'The service serves the built studio as files; no code imports its sources.',
      from: { path: '^(src|bench|scripts)/' },
      to: { path: '^studio/' },
    },
    {
      name: 'src-reaches-no-tests',
      severity: 'error',
      comment: 'Except the set-up steps, which ship in the package: `timbre setup` runs the code `npm run setup` does.',
      from: { path: '^src/' },
      to: { path: '^(test|bench|scripts)/', pathNot: '^scripts/setup/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] },
  },
};
