import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const apiTarget = process.env.SCN_API_URL ?? 'http://localhost:5050';

export default defineConfig({
  plugins: [react()],
  resolve: {
    // The contract is consumed from source, so the portal and the server never drift.
    alias: { '@scn/proto': fileURLToPath(new URL('../proto/src/browser.ts', import.meta.url)) },
  },
  server: {
    port: 5173,
    proxy: {
      '/api': apiTarget,
      '/data': apiTarget,
      '/socket.io': { target: apiTarget, ws: true },
    },
  },
  // Maps are written beside the bundle for whoever debugs a build, but the bundle does not name
  // them and the control plane never serves a `.map` (docs/security.md, "The portal").
  build: { outDir: 'dist', sourcemap: 'hidden' },
});
