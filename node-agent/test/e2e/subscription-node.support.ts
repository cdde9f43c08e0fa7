import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AgentDaemon } from '../../src/commands/run';
import type { AgentConfig } from '../../src/config/agent-config';
import {
  type ControlPlaneKit,
  type FundingChain,
  loadControlPlaneKit,
  type TestApp,
} from './control-plane-kit';
import { killAndWait, type LocalHttpServer, startHttpServer } from './proxy-core.support';
import { enrollV2rayNode, startV2rayDaemon } from './v2ray-node';

const CONTROL_PLANE = path.join(__dirname, '../../../control-plane');

/** The parts of the control plane's test kit the subscription suites use beyond the shared kit. */
export interface SubscriptionKit extends Pick<
  ControlPlaneKit,
  'startFundingChain' | 'depositThroughChain' | 'AgentGrpcServer'
> {
  startTestApp(env: Record<string, string>, options?: { clock: { now(): Date } }): Promise<TestApp>;
  registerAccount(
    t: TestApp,
    options: { userType: 'client' | 'node' },
  ): Promise<{ uuid: string; token: string; cookie: string }>;
  SubscriptionBillingJob: unknown;
}

async function loadSubscriptionKit(): Promise<SubscriptionKit> {
  const [shared, billing] = await Promise.all([
    loadControlPlaneKit(),
    import(path.join(CONTROL_PLANE, 'src/subscriptions/subscription-billing.job')) as Promise<
      Record<string, unknown>
    >,
  ]);
  return { ...shared, ...billing } as unknown as SubscriptionKit;
}

export interface SubscriptionNodeOptions {
  /** What the loopback HTTP server answers: the page clients fetch through the node. */
  readonly body: string;
  /** The scratch folder's name prefix (agent config, client configs). */
  readonly workDirPrefix: string;
  /** The control plane's clock; the chain's block times follow it. Default: the real clock. */
  readonly clock?: { now(): Date };
  /** SSL given to the client through a real deposit on the chain. */
  readonly clientSsl: number;
}

const quiet = { out: () => undefined, err: () => undefined };

/**
 * The subscription suites' world, every part real: a control plane whose launch period is over
 * (purchases are paid), the local chain funding it, a node operator whose agent enrolled and
 * runs Debian's v2ray, a client funded through a real deposit, and a loopback HTTP server to
 * fetch through the node. `stop` ends whatever `start` got to, in reverse, so a start that failed
 * half way leaves nothing running.
 */
export class SubscriptionNode {
  kit!: SubscriptionKit;
  t!: TestApp;
  funding: FundingChain | undefined;
  operator!: { uuid: string; token: string; cookie: string };
  client!: { uuid: string; token: string; cookie: string };
  workDir: string | undefined;
  httpServer!: LocalHttpServer;
  config!: AgentConfig;
  daemon: AgentDaemon | undefined;
  /** Client cores the suite starts (v2ray processes), killed by `stop`. */
  readonly clients: ChildProcess[] = [];
  readonly io = quiet;

  async start(options: SubscriptionNodeOptions): Promise<void> {
    const clock = options.clock;
    this.kit = await loadSubscriptionKit();
    this.funding = await this.kit.startFundingChain(
      clock ? { now: () => clock.now().getTime() } : {},
    );
    this.t = await this.kit.startTestApp(
      { ...this.funding.env, LAUNCH_PERIOD_ENDS: '2020-01-01' },
      clock ? { clock } : undefined,
    );
    const grpcPort = this.t.app.get<{ port: number }>(this.kit.AgentGrpcServer).port;
    this.operator = await this.kit.registerAccount(this.t, { userType: 'node' });
    this.client = await this.kit.registerAccount(this.t, { userType: 'client' });
    // Funded through a real deposit on the chain.
    await this.kit.depositThroughChain(this.t, this.funding, this.client, options.clientSsl);
    this.workDir = await mkdtemp(path.join(tmpdir(), options.workDirPrefix));
    this.httpServer = await startHttpServer(options.body);
    const enrolled = await enrollV2rayNode(this.t, {
      operatorToken: this.operator.token,
      grpcPort,
      workDir: this.workDir,
      io: this.io,
    });
    this.config = enrolled.config;
    this.daemon = await startV2rayDaemon(enrolled, this.io);
  }

  async stop(): Promise<void> {
    try {
      await this.daemon?.stop();
      for (const child of this.clients) await killAndWait(child);
      await this.httpServer?.close();
      await this.t?.close();
    } finally {
      await this.funding?.stop();
      if (this.workDir) await rm(this.workDir, { recursive: true, force: true });
    }
  }
}
