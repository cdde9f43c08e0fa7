#!/usr/bin/env node
// Builds the agent as the installer downloads it: one JavaScript file (all dependencies
// inlined) beside the .proto trees it loads at run time, packed as dist-bundle/scn-agent.tgz:
//   bin/scn-agent.js, scn/..., v2ray/..., xray/...   (PROTO_ROOT is bin/..)
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { buildAgentFile } from './build-agent-file.mjs';

const agentDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const protoDir = join(agentDir, '..', 'proto');
const outDir = join(agentDir, 'dist-bundle');
const stage = join(outDir, 'scn-agent');

rmSync(outDir, { recursive: true, force: true });
mkdirSync(join(stage, 'bin'), { recursive: true });
await buildAgentFile(esbuild, join(stage, 'bin', 'scn-agent.js'));
for (const tree of ['scn', 'v2ray', 'xray'])
  cpSync(join(protoDir, tree), join(stage, tree), { recursive: true });
execFileSync('tar', ['-czf', join(outDir, 'scn-agent.tgz'), '-C', stage, '.']);
console.log(`Bundled ${join(outDir, 'scn-agent.tgz')}`);
