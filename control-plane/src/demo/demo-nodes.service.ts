import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import * as argon2 from 'argon2';
import { AccountsRepository } from '../accounts/accounts.repository';
import type { ActiveSession } from '../auth/auth.repository';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { TransactionRunner } from '../database/transaction-runner';
import { EnrollmentService } from '../enrollment/enrollment.service';
import { grpcTarget } from '../enrollment/installer.controller';
import { DEMO_OPERATOR_EMAIL } from '../enrollment/server-name';
import { AgentGrpcServer } from '../grpc/agent-grpc.server';
import { NodesRepository } from '../nodes/nodes.repository';

/** Where the demo nodes say they are, so the market looks like a real one (in turn). */
export const DEMO_PLACES: ReadonlyArray<{ country: string; location: string }> = [
  { country: 'DE', location: 'Frankfurt' },
  { country: 'NL', location: 'Amsterdam' },
  { country: 'SG', location: 'Singapore' },
  { country: 'US', location: 'New York' },
  { country: 'JP', location: 'Tokyo' },
  { country: 'FI', location: 'Helsinki' },
];

export function demoPlace(index: number): { country: string; location: string } {
  return DEMO_PLACES[index % DEMO_PLACES.length]!;
}

/**
 * `npm start` shows a live market: with DEMO_NODES set, the control plane issues that many
 * enrollment tokens of a demo operator (who cannot sign in: random password) and writes them to
 * DATA_DIR/demo/enrollment.json; scripts/start.mjs enrolls the real agent with them over gRPC.
 * Only in the application when demo seeding is configured (DemoModule.enabled).
 */
@Injectable()
export class DemoNodesService implements OnApplicationBootstrap {
  private readonly logger = new Logger('DemoNodesService');

  constructor(
    private readonly enrollment: EnrollmentService,
    private readonly servers: NodesRepository,
    private readonly accounts: AccountsRepository,
    private readonly grpc: AgentGrpcServer,
    private readonly transactions: TransactionRunner,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const operator = await this.demoOperator();
    await this.placeExistingDemoNodes(operator.uuid);
    const session = { id: 'demo', expiresAt: new Date(), account: operator } as ActiveSession;
    const tokens = [];
    for (let i = 0; i < this.config.demoNodes; i += 1) {
      tokens.push((await this.enrollment.createEnrollmentToken(session, 'tier1')).token);
    }
    const dir = join(this.config.dataDir, 'demo');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const file = join(dir, 'enrollment.json');
    writeFileSync(
      file,
      JSON.stringify(
        {
          grpcTarget: grpcTarget(this.config, this.grpc.port),
          tier: 'tier1',
          tokens,
          // scripts/start.mjs enrolls demo node i with --country/--location of places[i].
          places: tokens.map((_, i) => demoPlace(i)),
          // ...and runs it on these loopback ports (DEMO_NODE_PORT, DEMO_CORE_API_PORT), so two
          // instances on one machine can keep their demo nodes apart.
          ports: tokens.map((_, i) => ({
            publicPort: this.config.demoNodePort + i,
            coreApiPort: this.config.demoCoreApiPort + i,
          })),
        },
        null,
        2,
      ),
      {
        mode: 0o600,
      },
    );
    this.logger.log({ file, count: tokens.length }, 'Demo enrollment tokens written');
  }

  /** Demo nodes enrolled before they had a place get one (what `enroll --country` gives new ones). */
  private async placeExistingDemoNodes(operatorUuid: string): Promise<void> {
    const servers = await this.servers.listOwnedServers(operatorUuid);
    for (const [i, server] of servers.entries()) {
      if (server.country !== null) continue;
      await this.servers.updateOwnedServer(operatorUuid, server.id, demoPlace(i));
    }
  }

  private async demoOperator() {
    const existing = await this.accounts.findByLogin(DEMO_OPERATOR_EMAIL, 'node');
    if (existing) return existing;
    const passwordHash = await argon2.hash(randomBytes(32).toString('base64url'), {
      type: argon2.argon2id,
    });
    await this.transactions.run((tx) =>
      this.accounts.insert(tx, {
        uuid: randomUUID(),
        email: DEMO_OPERATOR_EMAIL,
        userType: 'node',
        passwordHash,
        name: 'Demo operator',
      }),
    );
    const created = await this.accounts.findByLogin(DEMO_OPERATOR_EMAIL, 'node');
    if (!created) throw new Error('the demo operator could not be created');
    return created;
  }
}
