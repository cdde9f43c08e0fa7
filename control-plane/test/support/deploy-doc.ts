import { spawn } from 'node:child_process';

/**
 * Reading docs/deploy.md as a script (deploy-doc.e2e-spec.ts): its fenced shell blocks by info
 * string, its Settings block's variables, and the systemd units its steps write.
 */

/** The bodies of the fenced blocks whose info string is `sh <marker>`, in order. */
export function extractBlocks(markdown: string, marker: string): string[] {
  const blocks: string[] = [];
  const fence = new RegExp('^```sh ' + marker + '\\n([\\s\\S]*?)^```$', 'gm');
  for (const match of markdown.matchAll(fence)) blocks.push(match[1]!);
  return blocks;
}

/** The variables the Settings block exports (the plain `sh` block with `export SCN_DOMAIN`). */
export function settingNames(markdown: string): string[] {
  const block = [...markdown.matchAll(/^```sh\n([\s\S]*?)^```$/gm)]
    .map((m) => m[1]!)
    .find((body) => body.includes('export SCN_DOMAIN='));
  if (!block) throw new Error('no Settings block');
  const names = new Set<string>();
  for (const line of block.split('\n')) {
    const exported = /^export (.*)$/.exec(line)?.[1];
    if (!exported) continue;
    for (const assignment of exported.matchAll(/(?:^|\s)([A-Z_][A-Z0-9_]*)=/g)) {
      names.add(assignment[1]!);
    }
  }
  return [...names];
}

/** KEY=VALUE lines as systemd's EnvironmentFile reads them (double quotes stripped). */
export function parseEnvironmentFile(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const match = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line.trim());
    if (!match) continue;
    const value = match[2]!;
    env[match[1]!] = /^".*"$/.test(value) ? value.slice(1, -1) : value;
  }
  return env;
}

/** A unit's [Service] lines systemd starts it by, with `%i` the instance. */
export function parseUnit(
  text: string,
  instance: string,
): { workingDirectory: string; environmentFiles: string[]; execStart: string[] } {
  const unit = {
    workingDirectory: '/',
    environmentFiles: [] as string[],
    execStart: [] as string[],
  };
  for (const raw of text.split('\n')) {
    const line = raw.replaceAll('%i', instance);
    const [key, ...rest] = line.split('=');
    const value = rest.join('=');
    if (key === 'WorkingDirectory') unit.workingDirectory = value;
    if (key === 'EnvironmentFile') unit.environmentFiles.push(value);
    if (key === 'ExecStart') unit.execStart = value.split(' ').filter(Boolean);
  }
  return unit;
}

/** Runs one step with bash -euo pipefail; answers its stdout, throws with its output on failure. */
export function runStep(script: string, env: Record<string, string>, cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-euo', 'pipefail', '-c', script], {
      cwd,
      env: { PATH: process.env.PATH, HOME: cwd, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(stdout + stderr);
      else reject(new Error(`step failed (${code}):\n${script}\n--- output:\n${stdout}${stderr}`));
    });
  });
}
