import type { ReportColumns } from '../../src/agent-reports/agent-report.repository';
import type { TestDatabase } from './test-database';

/**
 * The columns one applied report writes: a healthy tier's node at 100, reported at
 * 2026-11-01T00:00Z, changed by `overrides` (the agent-report repository's db-specs).
 */
export function reportColumns(overrides: Partial<ReportColumns> = {}): ReportColumns {
  return {
    reliabilityAtReport: 100,
    lastReportAt: new Date('2026-11-01T00:00:00Z'),
    lastCreditedAt: null,
    belowThresholdSince: null,
    bannedAt: null,
    host: 'h.example',
    port: 443,
    inbound: { security: 'none' },
    hardware: null,
    agentVersion: '0.1.0',
    coreState: 'running',
    activeClients: 0,
    pingMs: 7,
    uptimeSeconds: '1',
    appliedClientSetVersion: '0',
    certificatePem: null,
    ...overrides,
  };
}

/** Each server row's version (`xmin`), which a report write must be given and checks. */
export async function rowVersions(
  db: TestDatabase,
  ids: readonly string[],
): Promise<Map<string, string>> {
  const rows = await db.query<{ id: string; version: string }>(
    'SELECT id, xmin::text AS version FROM servers WHERE id = ANY($1::uuid[])',
    [ids],
  );
  return new Map(rows.map((row) => [row.id, row.version]));
}

/** One server row's version. */
export async function rowVersion(db: TestDatabase, id: string): Promise<string> {
  const version = (await rowVersions(db, [id])).get(id);
  if (version === undefined) throw new Error(`No server ${id}`);
  return version;
}
