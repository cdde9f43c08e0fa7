import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Timers } from '../backoff';
import { AgentConfigStore, agentConfigSchema, readAgentConfig } from '../config/agent-config';
import { sampleConfig } from '../config/agent-config.fixture';
import {
  auditCoreUsers,
  type CoreAuditResult,
  CoreAuditScheduler,
  foreignUsers,
  type RemovedClients,
} from './core-audit';
import type { ProxyCore } from './proxy-core';

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';
const X = 'badc0ffe-e0dd-4f00-8bad-f00dbeefcafe';

describe('foreignUsers', () => {
  it('should name the users neither desired nor removed by the agent', () => {
    expect(foreignUsers([A, B, X], new Set([A]), new Set([B]))).toEqual([X]);
  });

  it('should compare emails without regard to case when the core changed it', () => {
    expect(foreignUsers([A.toUpperCase()], new Set([A]), new Set())).toEqual([]);
  });

  it('should name a user added with an empty email', () => {
    expect(foreignUsers(['', A], new Set([A]), new Set())).toEqual(['']);
  });
});

function clean(overrides: Partial<CoreAuditResult> = {}): CoreAuditResult {
  return {
    at: '2025-01-01T00:00:00.000Z',
    mechanism: 'v2ray_user_counters',
    usersSeen: 1,
    foreignRemoved: [],
    restored: [],
    revokedStillConnected: [],
    reset: null,
    error: null,
    ...overrides,
  };
}

function fakeCore(results: Array<CoreAuditResult | Error>): ProxyCore {
  return {
    start: async () => undefined,
    stop: async () => undefined,
    reconcile: async () => undefined,
    traffic: async () => [],
    status: () => ({ state: 'running', kind: 'v2ray', version: '4.34.0', restartCount: 0 }),
    audit: async () => {
      const next = results.shift();
      if (!next) throw new Error('no more audits scripted');
      if (next instanceof Error) throw next;
      return next;
    },
  };
}

async function setup(results: Array<CoreAuditResult | Error>) {
  const file = path.join(await mkdtemp(path.join(tmpdir(), 'scn-audit-')), 'config.json');
  const store = new AgentConfigStore(file, agentConfigSchema.parse(sampleConfig()));
  const pending: Array<{ callback: () => void; ms: number }> = [];
  const timers: Timers = {
    setTimeout: (callback, ms) => {
      const entry = { callback, ms };
      pending.push(entry);
      return entry;
    },
    clearTimeout: (handle) => {
      const index = pending.indexOf(handle as (typeof pending)[number]);
      if (index >= 0) pending.splice(index, 1);
    },
  };
  const logs: string[] = [];
  const scheduler = new CoreAuditScheduler({
    core: fakeCore(results),
    store,
    timers,
    intervalMs: 30_000,
    log: (line) => logs.push(line),
  });
  return { file, store, pending, logs, scheduler };
}

describe('CoreAuditScheduler', () => {
  it('should record every audit and keep the last finding when later audits are clean', async () => {
    const finding = clean({ foreignRemoved: [X], reset: 'foreign_users' });
    const { file, store, pending, logs, scheduler } = await setup([finding, clean()]);

    await scheduler.runOnce();
    expect(pending.map((entry) => entry.ms)).toEqual([30_000]);
    pending.shift()!.callback();
    await scheduler.runOnce();

    expect(store.current.lastCoreAudit).toEqual(clean());
    expect(store.current.lastCoreAuditFinding).toEqual(finding);
    expect((await readAgentConfig(file)).lastCoreAuditFinding).toEqual(finding);
    expect(logs).toEqual([expect.stringContaining(`removed 1 foreign user(s) (${X})`)]);
    await scheduler.stop();
  });

  it('should record a failed audit and keep auditing when the core refuses', async () => {
    const { store, pending, logs, scheduler } = await setup([new Error('API down'), clean()]);

    await scheduler.runOnce();

    expect(store.current.lastCoreAudit).toMatchObject({ error: 'API down', mechanism: null });
    expect(store.current.lastCoreAuditFinding).toBeUndefined();
    expect(logs).toEqual(['core audit failed: API down']);
    expect(pending).toHaveLength(1);
    await scheduler.stop();
    expect(pending).toHaveLength(0);
  });

  it('should keep a single timer when audits are also run by hand', async () => {
    const { pending, scheduler } = await setup([clean(), clean(), clean()]);

    await scheduler.runOnce();
    await scheduler.runOnce();
    await scheduler.runOnce();

    expect(pending).toHaveLength(1);
    await scheduler.stop();
  });
});

describe('auditCoreUsers', () => {
  /** A v2ray core's API as the audit sees it: counters, and users added or not. */
  function v2rayApi(users: Set<string>, counters: Record<string, bigint>) {
    return {
      userTraffic: async () =>
        Object.entries(counters).map(([clientUuid, bytes]) => ({
          clientUuid,
          uplinkBytes: bytes,
          downlinkBytes: bytes,
        })),
      inboundUserEmails: async () => {
        throw new Error('v2ray cannot list users');
      },
      removeUser: async (_tag: string, email: string) => {
        users.delete(email);
        return 'removed' as const;
      },
      addUser: async (_tag: string, uuid: string) => {
        if (users.has(uuid)) return 'already_present' as const;
        users.add(uuid);
        return 'added' as const;
      },
    };
  }

  it('should count a lost user as restored only when the agent had applied it', async () => {
    const users = new Set<string>();
    const applied = new Set([A]);

    const result = await auditCoreUsers({
      kind: 'v2ray',
      api: v2rayApi(users, {}),
      desired: [A, B],
      flow: '',
      removedSinceStart: new Map(),
      applied,
    });

    // B's earlier add had failed: adding it now is a late apply, not someone's removal undone.
    expect(result.restored).toEqual([A]);
    expect([...users].sort()).toEqual([A, B]);
    expect([...applied].sort()).toEqual([A, B]);
  });

  it('should name a revoked client whose counters moved since its removal', async () => {
    const removed: RemovedClients = new Map([
      [A, { up: 100n, down: 100n }],
      [B, null],
    ]);

    const result = await auditCoreUsers({
      kind: 'v2ray',
      api: v2rayApi(new Set(), { [A]: 150n, [B]: 10n }),
      desired: [],
      flow: '',
      removedSinceStart: removed,
      applied: new Set(),
    });

    expect(result).toMatchObject({ foreignRemoved: [], revokedStillConnected: [A] });
    // B's baseline is read now; only later movement counts.
    expect(removed.get(B)).toEqual({ up: 10n, down: 10n });
  });
});
