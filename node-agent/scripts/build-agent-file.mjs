// One esbuild build of the agent into a single JavaScript file, shared by scripts/bundle.mjs
// (what the installer downloads) and bench/ingest (which measures that same file).
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const agentDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const protoDir = join(agentDir, '..', 'proto');

/**
 * Builds node-agent/src/index.ts into `outfile` with the given esbuild module, and beside it
 * `scn-agent-acme.js`, the ACME order program the daemon runs as a child process now and then
 * (src/certificates/acme-order.ts): acme-client's 1.1 MB stay out of the daemon's memory.
 */
export async function buildAgentFile(esbuild, outfile) {
  await buildOne(esbuild, join(agentDir, 'src', 'index.ts'), outfile);
  await buildOne(
    esbuild,
    join(agentDir, 'src', 'certificates', 'acme-order-child.ts'),
    join(dirname(outfile), 'scn-agent-acme.js'),
  );
}

async function buildOne(esbuild, entry, outfile) {
  await esbuild.build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node18',
    format: 'cjs',
    // No comments and ASCII only: V8 keeps the whole source in memory, and one non-Latin-1
    // character in a comment makes it a two-byte string. Names are kept so that stack traces
    // stay readable.
    minifyWhitespace: true,
    minifySyntax: true,
    keepNames: true,
    charset: 'ascii',
    // ES modules where packages have them, and the contract package from its TypeScript
    // source (its dist is CommonJS): esbuild can then drop what is unused, e.g. zod's 40
    // locales (2.4 MB -> 1.6 MB of source kept in memory).
    mainFields: ['module', 'main'],
    alias: { '@scn/proto': join(protoDir, 'src', 'index.ts') },
    sourcemap: false,
    legalComments: 'none',
    logLevel: 'warning',
  });
  // esbuild leaves non-ASCII characters inside regular expression literals (systeminformation
  // has one): escape what is left, so the whole source stays a one-byte string in V8.
  writeFileSync(
    outfile,
    readFileSync(outfile, 'utf8').replace(
      /[^\x00-\x7f]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    ),
  );
}
