// Summarises a V8 .cpuprofile (node --cpu-prof): self time by package or source area, and the
// hottest functions, as shares of the sampled time.
import { readFileSync } from 'node:fs';

/** `node_modules/<pkg>`, the first-party package folder, or V8's pseudo-frames. */
function areaOf(url) {
  if (!url) return null;
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (modules) return modules[1];
  const own = /\/(control-plane|node-agent|proto|portal)\/dist\/(?:src\/)?([^/]+)/.exec(url);
  if (own) return `${own[1]}/${own[2].replace(/\.js$/, '')}`;
  if (url.startsWith('node:')) return 'node: core';
  return url;
}

/**
 * `only`: keep the samples taken between `from` and `to` (Date.now() values), given `endedAt`, the
 * Date.now() at which the profiled process stopped (the profile's end), to place them in time.
 */
export function summariseCpuProfile(file, { top = 12, only } = {}) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const samples = new Map();
  let at = profile.startTime;
  let total = 0;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i];
    if (only) {
      const wall = only.endedAt - (profile.endTime - at) / 1000;
      if (wall < only.from || wall > only.to) return;
    }
    total += 1;
    samples.set(id, (samples.get(id) ?? 0) + 1);
  });
  const areas = new Map();
  const functions = new Map();
  let idle = 0;
  for (const [id, count] of samples) {
    const node = byId.get(id);
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === '(idle)') {
      idle += count;
      continue;
    }
    const area = areaOf(url) ?? functionName; // (garbage collector), (program), native
    areas.set(area, (areas.get(area) ?? 0) + count);
    const fn = `${functionName || '(anonymous)'} ${url ? `${area}:${lineNumber + 1}` : ''}`.trim();
    functions.set(fn, (functions.get(fn) ?? 0) + count);
  }
  const busy = total - idle;
  const rank = (map) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, count]) => ({ name, share: count / busy }));
  return { busyShare: busy / total, areas: rank(areas), functions: rank(functions) };
}
