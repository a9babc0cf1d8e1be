import { defineConfig } from 'vite';

/** The studio builds to studio/dist, which the service serves at `/` (never committed). */
export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
  build: { outDir: 'dist', emptyOutDir: true, assetsDir: 'assets', sourcemap: false, target: 'es2022', chunkSizeWarningLimit: 400 },
});
