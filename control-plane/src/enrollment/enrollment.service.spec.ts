import { AVOIDED_PORTS, PLAN_PORT_RANGE } from '../nodes/inbound-plan';
import { createHash } from 'node:crypto';
import type { ActiveSession } from '../auth/auth.repository';
import type { AppConfig } from '../config/app-config';
import type { Transaction, TransactionRunner } from '../database/transaction-runner';
import type { NodesRepository } from '../nodes/nodes.repository';
import type { RealtimeGateway } from '../realtime/realtime.gateway';
import type { EnrollmentRepository } from './enrollment.repository';
import {
  type EnrollingHardware,
  ENROLLMENT_TOKEN_TTL_MS,
  EnrollmentService,
  meetsTier,
} from './enrollment.service';
import { DEMO_OPERATOR_EMAIL } from './server-name';

const GIB = 1024 ** 3;
const now = new Date('2026-11-10T12:00:00.000Z');
const tx = { tx: true } as unknown as Transaction;
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const hardware = (cpuCores: number, ramGib: number): EnrollingHardware => ({
  os: 'linux',
  cpuCores,
  ramBytes: String(Math.round(ramGib * GIB)),
});

function setup(
  token: {
    id: string;
    ownerUuid: string;
    tier: 'tier1' | 'tier2';
    serverName?: string | null;
  } | null,
) {
  const repository = {
    insertEnrollmentToken: jest.fn(async () => undefined),
    consumeEnrollmentToken: jest.fn(async () => token),
    ownerOf: jest.fn(async () => ({ email: DEMO_OPERATOR_EMAIL, servers: 1 })),
    linkTokenToServer: jest.fn(async () => undefined),
  };
  const servers = { insertServer: jest.fn(async () => undefined) };
  const transactions = { run: jest.fn((work: (t: Transaction) => unknown) => work(tx)) };
  const realtime = { serverListUpdated: jest.fn() };
  const service = new EnrollmentService(
    repository as unknown as EnrollmentRepository,
    servers as unknown as NodesRepository,
    transactions as unknown as TransactionRunner,
    { now: () => now },
    { publicUrl: 'https://scn.example' } as AppConfig,
    realtime as unknown as RealtimeGateway,
  );
  return { service, repository, servers, transactions, realtime };
}

const session = (userType: 'node' | 'client') =>
  ({ account: { uuid: 'owner-1', userType } }) as unknown as ActiveSession;

const request = {
  enrollmentToken: 't'.repeat(43),
  tier: 'tier1' as const,
  agentVersion: '1.0.0',
  hardware: hardware(1, 1),
  country: 'DE',
  location: 'Frankfurt',
};

describe('meetsTier', () => {
  it('should accept RAM up to 10% under the tier and refuse less, or fewer cores', () => {
    expect(meetsTier(hardware(1, 0.9), 'tier1')).toBe(true);
    expect(meetsTier(hardware(1, 0.89), 'tier1')).toBe(false);
    expect(meetsTier(hardware(0, 4), 'tier1')).toBe(false);
  });
});

describe('EnrollmentService.createEnrollmentToken', () => {
  it('should store only the hash of a token that lives 24 hours, and give the install command', async () => {
    const { service, repository } = setup(null);
    const issued = await service.createEnrollmentToken(session('node'), 'tier2');
    expect(issued.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(issued.expiresAt).toEqual(new Date(now.getTime() + ENROLLMENT_TOKEN_TTL_MS));
    expect(issued.installCommand).toBe(
      `curl -fsSL https://scn.example/install.sh | sudo bash -s -- --token ${issued.token} --tier tier2`,
    );
    expect(repository.insertEnrollmentToken).toHaveBeenCalledWith(
      expect.objectContaining({
        tokenHash: sha256(issued.token),
        ownerUuid: 'owner-1',
        serverName: null,
      }),
    );
  });

  it('should keep the name the wizard gave the server on the token', async () => {
    const { service, repository } = setup(null);
    await service.createEnrollmentToken(session('node'), 'tier1', 'Frankfurt VPS');
    expect(repository.insertEnrollmentToken).toHaveBeenCalledWith(
      expect.objectContaining({ tier: 'tier1', serverName: 'Frankfurt VPS' }),
    );
  });

  it('should refuse when the account is not a node operator', async () => {
    const { service, repository } = setup(null);
    await expect(service.createEnrollmentToken(session('client'), 'tier1')).rejects.toMatchObject({
      code: 'not_a_node_account',
    });
    expect(repository.insertEnrollmentToken).not.toHaveBeenCalled();
  });
});

describe('EnrollmentService.enroll', () => {
  it('should name the server as the wizard did when the token carries a name', async () => {
    const { service, repository, servers } = setup({
      id: 'token-1',
      ownerUuid: 'owner-1',
      tier: 'tier1',
      serverName: 'Frankfurt VPS',
    });
    await service.enroll(request);
    expect(servers.insertServer).toHaveBeenCalledWith(
      tx,
      expect.objectContaining({ name: 'Frankfurt VPS' }),
    );
    expect(repository.ownerOf).not.toHaveBeenCalled();
  });

  it('should create the server in the token’s transaction and hand out a secret naming it', async () => {
    const { service, repository, servers, realtime } = setup({
      id: 'token-1',
      ownerUuid: 'owner-1',
      tier: 'tier1',
    });
    const enrollment = await service.enroll(request);
    expect(repository.consumeEnrollmentToken).toHaveBeenCalledWith(
      tx,
      sha256(request.enrollmentToken),
      now,
    );
    expect(enrollment.nodeSecret.startsWith(`${enrollment.nodeId}.`)).toBe(true);
    expect(servers.insertServer).toHaveBeenCalledWith(tx, {
      id: enrollment.nodeId,
      ownerUuid: 'owner-1',
      name: 'Demo node 2',
      source: 'agent',
      country: 'DE',
      location: 'Frankfurt',
      tier: 'tier1',
      secretHash: sha256(enrollment.nodeSecret),
      hostName: enrollment.hostName,
      // Sent by no agent before ACME certificates.
      enrolledHost: null,
      inbound: {},
      // An agent that names no core (before secure transports) gets what v2ray serves: TLS over TCP.
      core: null,
      planPort: enrollment.inboundPlan.port,
      planSecurity: 'tls',
      planNetwork: 'tcp',
      planRevision: '1',
      hardware: request.hardware,
      agentVersion: '1.0.0',
      reliabilityAtReport: 100,
      lastReportAt: now,
      lastCreditedAt: null,
      belowThresholdSince: null,
      bannedAt: null,
    });
    expect(repository.linkTokenToServer).toHaveBeenCalledWith(tx, 'token-1', enrollment.nodeId);
    expect(realtime.serverListUpdated.mock.calls).toEqual([['added']]);
    expect(enrollment.inboundPlan).toMatchObject({
      security: 'tls',
      network: 'tcp',
      revision: '1',
    });
    expect(enrollment.inboundPlan.port).toBeGreaterThanOrEqual(PLAN_PORT_RANGE.min);
    expect(enrollment.inboundPlan.port).toBeLessThanOrEqual(PLAN_PORT_RANGE.max);
    expect(enrollment.hostName).toMatch(/^n[0-9a-f]{16}$/);
  });

  it('should give every node a name of its own and keep the address the agent gave', async () => {
    const token = { id: 'token-1', ownerUuid: 'owner-1', tier: 'tier1' as const };
    const first = setup(token);
    const a = await first.service.enroll({ ...request, publicHost: '203.0.113.5' });
    const second = setup(token);
    const b = await second.service.enroll(request);
    expect(a.hostName).not.toBe(b.hostName);
    expect(first.servers.insertServer).toHaveBeenCalledWith(
      tx,
      expect.objectContaining({ hostName: a.hostName, enrolledHost: '203.0.113.5' }),
    );
  });

  it.each([
    ['xray', 0, 'reality'],
    ['v2ray', 0, 'tls'],
    ['xray', 8443, 'reality'],
  ] as const)(
    'should give a %s machine asking for port %d a persistent port and %s over TCP',
    async (core, requestedPort, security) => {
      const { service, servers } = setup({ id: 't', ownerUuid: 'owner-1', tier: 'tier1' });
      const enrollment = await service.enroll({ ...request, core, requestedPort });
      const plan = enrollment.inboundPlan;
      expect(plan).toMatchObject({ security, network: 'tcp', revision: '1' });
      if (requestedPort) expect(plan.port).toBe(requestedPort);
      else expect(AVOIDED_PORTS.has(plan.port)).toBe(false);
      expect(servers.insertServer).toHaveBeenCalledWith(
        tx,
        expect.objectContaining({ core, planPort: plan.port, planSecurity: security }),
      );
    },
  );

  it.each([
    ['enrollment_token_invalid', null, request],
    ['tier_mismatch', { id: 't', ownerUuid: 'o', tier: 'tier2' as const }, request],
    [
      'hardware_below_tier',
      { id: 't', ownerUuid: 'o', tier: 'tier1' as const },
      { ...request, hardware: hardware(1, 0.5) },
    ],
  ])(
    'should refuse with %s and create nothing when the token or machine does not fit',
    async (code, token, req) => {
      const { service, servers, realtime } = setup(token);
      await expect(service.enroll(req)).rejects.toMatchObject({ code });
      expect(servers.insertServer).not.toHaveBeenCalled();
      expect(realtime.serverListUpdated).not.toHaveBeenCalled();
    },
  );
});
