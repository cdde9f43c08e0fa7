import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { HASHED_LOCK_PREFIXES, JOBS, OTHER_LOCKS } from './job-registry';

const SRC = join(__dirname, '..');
const REGISTRY = 'jobs/job-registry.ts';

/** The sources of src/ (specs left out), by path relative to src/. */
function sources(dir = SRC): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      for (const [file, text] of sources(path)) files.set(file, text);
    } else if (/\.ts$/.test(entry.name) && !/\.(spec|db-spec)\.ts$/.test(entry.name)) {
      files.set(relative(SRC, path), readFileSync(path, 'utf8'));
    }
  }
  return files;
}

function duplicates<T>(values: readonly T[]): T[] {
  return values.filter((value, i) => values.indexOf(value) !== i);
}

describe('the job registry', () => {
  const jobs = Object.values(JOBS);
  const files = sources();

  it('should give every job a name of its own that fits job_runs.job', () => {
    const names = jobs.map((job) => job.name);
    expect(duplicates(names)).toEqual([]);
    expect(names.filter((name) => !/^[a-z][a-z-]{1,39}$/.test(name))).toEqual([]);
  });

  it('should give every advisory lock an id of its own, jobs and others together', () => {
    const all: Array<number | null> = [
      ...jobs.map((job) => job.lockId),
      ...Object.values(OTHER_LOCKS),
    ];
    const ids = all.filter((id): id is number => id !== null);
    expect(duplicates(ids)).toEqual([]);
    expect(ids.filter((id) => !Number.isSafeInteger(id) || id <= 0)).toEqual([]);
    expect(duplicates(Object.values(HASHED_LOCK_PREFIXES))).toEqual([]);
  });

  it('should be the only place that writes an advisory lock id or a hashed lock prefix', () => {
    const offenders: string[] = [];
    for (const [file, text] of files) {
      if (file === REGISTRY) continue;
      // A literal id anywhere (the registry's range), or a literal key given to the lock itself.
      if (/\b4_?202_?\d{3}\b/.test(text)) offenders.push(`${file}: a lock id literal`);
      if (/pg_(try_)?advisory_(xact_)?(un)?lock(_shared)?\(\s*['\d]/.test(text)) {
        offenders.push(`${file}: a literal lock key`);
      }
      if (/hashtext(extended)?\(\s*'/.test(text)) offenders.push(`${file}: a literal lock prefix`);
    }
    expect(offenders).toEqual([]);
  });

  it('should have every *.job.ts start its job through the scheduler, each registered job once', () => {
    const jobFiles = [...files].filter(([file]) => file.endsWith('.job.ts'));
    const started: string[] = [];
    const offenders: string[] = [];
    for (const [file, text] of jobFiles) {
      const keys = [...text.matchAll(/scheduler\.start\(\s*JOBS\.(\w+)/g)].map((m) => m[1]!);
      if (keys.length === 0) offenders.push(`${file}: starts no job through JobScheduler`);
      if (/\bset(Interval|Timeout)\(/.test(text)) offenders.push(`${file}: a timer of its own`);
      started.push(...keys);
    }
    expect(offenders).toEqual([]);
    expect(duplicates(started)).toEqual([]);
    expect(started.sort()).toEqual(Object.keys(JOBS).sort());
  });

  it('should keep every *.job.ts a thin wrapper that only its module imports', () => {
    const offenders: string[] = [];
    for (const [file, text] of files) {
      if (file.endsWith('.job.ts')) {
        // The work is a service's: a job holds no SQL and no state beyond its schedule.
        if (/\b(SELECT|INSERT|UPDATE|DELETE)\b|\.query\(/.test(text))
          offenders.push(`${file}: SQL`);
        const fields = [...text.matchAll(/^\s+private (?:readonly )?(\w+)[^\n,]*;\s*$/gm)].map(
          (m) => m[1],
        );
        if (fields.some((field) => field !== 'job')) offenders.push(`${file}: state of its own`);
      } else if (!file.endsWith('.module.ts') && /from '\.{1,2}\/[^']*\.job'/.test(text)) {
        offenders.push(`${file}: imports a job class (call its service instead)`);
      }
    }
    expect(offenders).toEqual([]);
  });
});
