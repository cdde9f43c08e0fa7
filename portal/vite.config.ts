import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const apiTarget = process.env.SCN_API_URL ?? 'http://localhost:5050';

const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|xml|webmanifest|ico)$/i;
/** Below this a copy saves less than the headers cost. */
const MIN_BYTES = 256;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

/**
 * Writes a brotli (`.br`, max quality) and a gzip (`.gz`, level 9) copy beside each compressible
 * file of the build, which the control plane sends to browsers that accept them instead of
 * compressing per request (docs/api.md, "The portal"). index.html is compressed by the control
 * plane itself, which adds run-time settings to it.
 */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'scn-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = join(config.root, config.build.outDir);
    },
    closeBundle() {
      let identity = 0;
      let br = 0;
      for (const file of filesUnder(outDir)) {
        if (!COMPRESSIBLE.test(file) || file.endsWith('index.html')) continue;
        if (statSync(file).size < MIN_BYTES) continue;
        const content = readFileSync(file);
        const gzip = gzipSync(content, { level: 9 });
        // Not worth a second representation when it saves under a tenth.
        if (gzip.length > content.length * 0.9) continue;
        const brotli = brotliCompressSync(content, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
          },
        });
        writeFileSync(`${file}.gz`, gzip);
        if (brotli.length < gzip.length) writeFileSync(`${file}.br`, brotli);
        identity += content.length;
        br += Math.min(brotli.length, gzip.length);
      }
      this.info(`precompressed ${identity} bytes to ${br} (brotli)`);
    },
  };
}

/**
 * Puts the stylesheets first in `<head>`, before the entry's module preloads. The first paint waits
 * for the stylesheets only, but a browser opens at most six connections to a host over HTTP/1.1
 * and fetches in document order: behind eight preloads a stylesheet waited for a free connection,
 * one more round trip before anything showed (bench/portal-load: 1.4 s to 2.0 s on fast 3G).
 */
function stylesheetsFirst(): Plugin {
  return {
    name: 'scn-stylesheets-first',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        const sheets = html.match(/^\s*<link rel="stylesheet"[^>]*>\n/gm) ?? [];
        if (sheets.length === 0) return html;
        const rest = sheets.reduce((out, sheet) => out.replace(sheet, ''), html);
        const first = rest.search(/^\s*<(script type="module"|link rel="modulepreload")/m);
        return first < 0 ? html : rest.slice(0, first) + sheets.join('') + rest.slice(first);
      },
    },
  };
}

export default defineConfig({
  plugins: [react(), stylesheetsFirst(), precompress()],
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
  build: {
    outDir: 'dist',
    sourcemap: 'hidden',
    rolldownOptions: {
      output: {
        // React changes less often than the app: a release of the app leaves it cached.
        codeSplitting: {
          groups: [{ name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ }],
        },
      },
    },
  },
});
