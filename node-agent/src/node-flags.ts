/**
 * The Node.js flags the agent daemon runs with (the installer's launcher, the demo nodes and
 * bench/ingest use these; a test keeps install.sh in step).
 *
 * The agent is idle between reports (one a minute) and must stay small on a 1 GB VPS:
 * - `--lite-mode`: no optimising compiler, less code memory (about 9 MB of RSS here); the few
 *   milliseconds of CPU per report do not need TurboFan.
 * - `--max-semi-space-size=1`: a 1 MB young generation instead of up to 16 MB per semi-space;
 *   the agent allocates little, so scavenges stay rare.
 * - `--no-expose-wasm`: lite mode has no WebAssembly anyway; saying so keeps V8 from printing a
 *   warning on every start (into `scn-agent status` output). Hence no `fetch` in the agent
 *   (undici parses HTTP with wasm): ESLint forbids it there.
 * - `--single-threaded`: no V8 background threads (concurrent marking, parallel scavenges); the
 *   agent's heap is a few MB, so its collections stay short on the main thread (about 1.3 MB of
 *   RSS here, bench/ingest).
 */
export const AGENT_NODE_FLAGS: readonly string[] = [
  '--lite-mode',
  '--no-expose-wasm',
  '--max-semi-space-size=1',
  '--single-threaded',
];

/**
 * glibc malloc settings for the same reason: one arena (the agent has one busy thread) and
 * returning freed memory to the system above 64 kB instead of keeping it (about 2 MB here).
 */
export const AGENT_NODE_ENV: Readonly<Record<string, string>> = {
  MALLOC_ARENA_MAX: '1',
  MALLOC_TRIM_THRESHOLD_: '65536',
};
