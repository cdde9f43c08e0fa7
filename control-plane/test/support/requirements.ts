import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * What a suite may need from the machine beyond Node.js and npm, and how a newcomer gets it.
 * `npm test` on a machine that lacks one skips the tests that need it and says why (a newcomer's
 * first run must pass); CI installs all of them and fails on any skipped test (.ci/run), so a
 * skip can never hide a regression there. docs/development.md#what-the-suites-use lists them.
 */
export type Requirement = 'v2ray' | 'root' | 'netns' | 'nft' | 'shellcheck' | 'zip' | 'promtool';

export const V2RAY_PATH = '/usr/bin/v2ray';

const onPath = (command: string) =>
  (process.env.PATH ?? '')
    .split(path.delimiter)
    .some((dir) => dir !== '' && existsSync(path.join(dir, command)));

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

const CHECKS: Record<Requirement, () => string | null> = {
  v2ray: () => (existsSync(V2RAY_PATH) ? null : `${V2RAY_PATH} is missing (apt-get install v2ray)`),
  root: () => (isRoot() ? null : 'needs root (install.sh installs for real only as root)'),
  netns: () => {
    if (!isRoot()) return 'network namespaces need root';
    const probe = spawnSync('ip', ['netns', 'list'], { timeout: 5000 });
    return probe.error || probe.status !== 0 ? '`ip netns` is unavailable (iproute2)' : null;
  },
  nft: () => (onPath('nft') ? null : 'nft is missing (apt-get install nftables)'),
  shellcheck: () =>
    onPath('shellcheck') ? null : 'shellcheck is missing (apt-get install shellcheck)',
  promtool: () => (onPath('promtool') ? null : 'promtool is missing (apt-get install prometheus)'),
  zip: () =>
    onPath('zip') && onPath('unzip')
      ? null
      : 'zip and unzip are missing (apt-get install zip unzip)',
};

const answers = new Map<Requirement, string | null>();

/** Why the machine cannot run a test that needs `needs`: one reason per missing part. */
export function missingRequirements(needs: readonly Requirement[]): string[] {
  return needs.flatMap((need) => {
    if (!answers.has(need)) answers.set(need, CHECKS[need]());
    return answers.get(need) ?? [];
  });
}

/**
 * `describe` when the machine has everything in `needs`, else `describe.skip`, saying so (once,
 * when the file is collected) with `what` the skipped tests are and why.
 */
export function describeNeeding(needs: readonly Requirement[], what: string): jest.Describe {
  const reasons = missingRequirements(needs);
  if (reasons.length === 0) return describe;
  console.warn(`[skipped] ${what}: ${reasons.join('; ')}`);
  return describe.skip;
}

/** `it` when the machine has everything in `needs`, else `it.skip`, saying so as above. */
export function itNeeding(needs: readonly Requirement[], what: string): jest.It {
  const reasons = missingRequirements(needs);
  if (reasons.length === 0) return it;
  console.warn(`[skipped] ${what}: ${reasons.join('; ')}`);
  return it.skip;
}
