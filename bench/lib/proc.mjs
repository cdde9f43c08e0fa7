// Linux /proc readings for benchmarks: a process's CPU time and RSS, its descendants, and the
// machine's busy time.
import { readFileSync, readdirSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat times (USER_HZ; 100 on Linux x86 and arm). */
const TICK_MS = 10;

function statFields(pid) {
  const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) may hold spaces and parentheses: split after its last ')'.
  return text.slice(text.lastIndexOf(')') + 2).split(' ');
}

/**
 * User + system CPU time of `pid` in ms (0 once it has gone); with `children`, plus that of its
 * exited and waited-for children (cutime, cstime), e.g. commands it ran.
 */
export function cpuMs(pid, { children = false } = {}) {
  try {
    const f = statFields(pid);
    // utime, stime, cutime, cstime: fields 14-17
    const ticks = Number(f[11]) + Number(f[12]) + (children ? Number(f[13]) + Number(f[14]) : 0);
    return ticks * TICK_MS;
  } catch {
    return 0;
  }
}

/** Resident set size of `pid` in bytes (VmRSS), or 0 once it has gone. */
export function rssBytes(pid) {
  try {
    const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** The ids of the processes alive now. */
function processIds() {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number);
}

/** Every live process below `pid` (children, grandchildren, ...). */
export function descendants(pid) {
  const children = new Map();
  for (const entry of processIds()) {
    try {
      const ppid = Number(statFields(entry)[1]);
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push(entry);
    } catch {
      // exited meanwhile
    }
  }
  const out = [];
  const stack = [...(children.get(pid) ?? [])];
  while (stack.length > 0) {
    const next = stack.pop();
    out.push(next);
    stack.push(...(children.get(next) ?? []));
  }
  return out;
}

/**
 * The PostgreSQL processes whose CPU a benchmark counts: the embedded server's, below the control
 * plane `cpPid`; with DATABASE_URL (a server the benchmark did not start), every `postgres`
 * process of this machine, so other databases' work on that server counts too.
 */
export function postgresPids(cpPid) {
  if (!process.env.DATABASE_URL) return descendants(cpPid);
  return processIds().filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres';
    } catch {
      return false; // exited meanwhile
    }
  });
}

/** Busy, stolen (by the hypervisor) and total CPU time of the whole machine in ms (/proc/stat). */
export function machineCpuMs() {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1);
  const ticks = fields.map(Number);
  const total = ticks.slice(0, 8).reduce((a, b) => a + b, 0);
  const idle = ticks[3] + ticks[4]; // idle + iowait
  const steal = ticks[7];
  return {
    busy: (total - idle - steal) * TICK_MS,
    steal: steal * TICK_MS,
    total: total * TICK_MS,
  };
}
