import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import type { AccountsRepository } from '../accounts/accounts.repository';
import type { AppConfig } from '../config/app-config';
import type { Transaction, TransactionRunner } from '../database/transaction-runner';
import type { EnrollmentService } from '../enrollment/enrollment.service';
import { DEMO_OPERATOR_EMAIL } from '../enrollment/server-name';
import type { AgentGrpcServer } from '../grpc/agent-grpc.server';
import type { NodesRepository } from '../nodes/nodes.repository';
import { demoPlace, DemoNodesService } from './demo-nodes.service';
import { DemoModule } from './demo.module';

const dataDirs: string[] = [];
beforeEach(() => jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined));
afterEach(() => {
  jest.restoreAllMocks();
  for (const dir of dataDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const operator = { uuid: 'demo-op', email: DEMO_OPERATOR_EMAIL, userType: 'node' };

function setup(existing: boolean) {
  const dataDir = mkdtempSync(join(tmpdir(), 'scn-demo-spec-'));
  dataDirs.push(dataDir);
  const config = {
    demoNodes: 2,
    grpcPort: 0,
    grpcHost: '127.0.0.1',
    publicUrl: 'http://127.0.0.1:3000',
    dataDir,
    demoNodePort: 40101,
    demoCoreApiPort: 40201,
  } as AppConfig;
  let created = existing;
  const accounts = {
    findByLogin: jest.fn(async () => (created ? operator : null)),
    insert: jest.fn(async () => {
      created = true;
      return true;
    }),
  };
  let issued = 0;
  const enrollment = {
    createEnrollmentToken: jest.fn(async () => ({ token: `token-${(issued += 1)}` })),
  };
  const servers = {
    listOwnedServers: jest.fn(async () => [
      { id: 'a', country: 'DE' },
      { id: 'b', country: null },
    ]),
    updateOwnedServer: jest.fn(async () => true),
  };
  const tx = { tx: true } as unknown as Transaction;
  const transactions = { run: jest.fn((work: (t: Transaction) => unknown) => work(tx)) };
  const service = new DemoNodesService(
    enrollment as unknown as EnrollmentService,
    servers as unknown as NodesRepository,
    accounts as unknown as AccountsRepository,
    { port: 45051 } as AgentGrpcServer,
    transactions as unknown as TransactionRunner,
    config,
  );
  return { service, config, accounts, servers, transactions, tx };
}

describe('DemoModule.enabled', () => {
  it('should be in the application only when demo nodes are asked for and gRPC is served', () => {
    expect(DemoModule.enabled({ demoNodes: 3, grpcPort: 5051 } as AppConfig)).toBe(true);
    expect(DemoModule.enabled({ demoNodes: 0, grpcPort: 5051 } as AppConfig)).toBe(false);
    expect(DemoModule.enabled({ demoNodes: 3, grpcPort: null } as AppConfig)).toBe(false);
  });
});

describe('DemoNodesService', () => {
  it('should write one token, place and port pair per demo node for scripts/start.mjs', async () => {
    const { service, config } = setup(true);
    await service.onApplicationBootstrap();
    const file = JSON.parse(readFileSync(join(config.dataDir, 'demo', 'enrollment.json'), 'utf8'));
    expect(file).toEqual({
      grpcTarget: '127.0.0.1:45051',
      tier: 'tier1',
      tokens: ['token-1', 'token-2'],
      places: [demoPlace(0), demoPlace(1)],
      ports: [
        { publicPort: 40101, coreApiPort: 40201 },
        { publicPort: 40102, coreApiPort: 40202 },
      ],
    });
  });

  it('should create the demo operator in a transaction when it does not exist yet', async () => {
    const { service, accounts, tx } = setup(false);
    await service.onApplicationBootstrap();
    expect(accounts.insert).toHaveBeenCalledWith(
      tx,
      expect.objectContaining({ email: DEMO_OPERATOR_EMAIL, userType: 'node' }),
    );
  });

  it('should give a place to the demo nodes enrolled without one, and leave the others', async () => {
    const { service, servers } = setup(true);
    await service.onApplicationBootstrap();
    expect(servers.updateOwnedServer.mock.calls).toEqual([['demo-op', 'b', demoPlace(1)]]);
  });
});
