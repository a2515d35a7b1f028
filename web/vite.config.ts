import { defineConfig } from 'vite';

// Built by `npm run build` into dist/web, which retouch serves at `/` (src/http/web-app.ts).
export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: { outDir: '../dist/web', emptyOutDir: true, target: 'es2022', reportCompressedSize: false },
  // `npm run web:dev` serves the app with hot reload against a retouch on port 8080.
  server: {
    proxy: Object.fromEntries(['/v1', '/storage'].map((p) => [p, 'http://127.0.0.1:8080'])),
  },
});
