import path from 'node:path';
import type { CommandIo } from '../../src/commands/context';
import { enroll, type EnrollDeps } from '../../src/commands/enroll';
import { AgentDaemon, proxyCoreOptions } from '../../src/commands/run';
import { type AgentConfig, AgentConfigStore, readAgentConfig } from '../../src/config/agent-config';
import { XrayCore } from '../../src/proxy-core/xray-core';
import { readHardware } from '../../src/system/hardware';
import type { TestApp } from './control-plane-kit';
import { eventually, freePort } from './proxy-core.support';

export const V2RAY = '/usr/bin/v2ray';

/**
 * A node as an operator makes one: the setup wizard's enrollment token (tier1), then the real
 * `scn-agent enroll` over gRPC on loopback, set up to run Debian's v2ray on free loopback
 * ports under `workDir`. Answers the agent's config file and what it holds.
 */
export async function enrollV2rayNode(
  t: TestApp,
  options: {
    operatorToken: string;
    grpcPort: number;
    workDir: string;
    io: EnrollDeps['io'];
    /** More `enroll` flags (e.g. the ACME CA's). */
    flags?: Record<string, string>;
  },
): Promise<{ configPath: string; config: AgentConfig }> {
  const tokenResponse = await t
    .http()
    .post('/api/nodes/enrollment-tokens')
    .set('Authorization', `Bearer ${options.operatorToken}`)
    .send({ tier: 'tier1' })
    .expect(201);
  return enrollV2rayNodeWithToken({
    ...options,
    token: (tokenResponse.body as { token: string }).token,
    server: `127.0.0.1:${options.grpcPort}`,
  });
}

/** enrollV2rayNode with a token already made, to `server` (`host:port`, or several). */
export async function enrollV2rayNodeWithToken(options: {
  token: string;
  server: string;
  workDir: string;
  io: EnrollDeps['io'];
  flags?: Record<string, string>;
}): Promise<{ configPath: string; config: AgentConfig }> {
  const configPath = path.join(options.workDir, 'agent', 'config.json');
  await enroll(
    {
      server: options.server,
      token: options.token,
      tier: 'tier1',
      publicHost: '127.0.0.1',
      publicPort: String(await freePort()),
      core: 'v2ray',
      coreBinary: V2RAY,
      coreApiPort: String(await freePort()),
      coreWorkDir: path.join(options.workDir, 'core'),
      config: configPath,
      ...options.flags,
    },
    { io: options.io },
  );
  return { configPath, config: await readAgentConfig(configPath) };
}

/**
 * The enrolled node's daemon, started on Debian's v2ray, once its first report (which tells the
 * control plane where clients dial the node) went through. Its core may reach 127.0.0.1, which a
 * node refuses by default (see the daemon e2e): the suites' pages are on loopback.
 */
export async function startV2rayDaemon(
  enrolled: { configPath: string; config: AgentConfig },
  io: CommandIo,
): Promise<AgentDaemon> {
  const core = new XrayCore(
    { ...proxyCoreOptions(enrolled.config), allowPrivateDestinations: true },
    { stopTimeoutMs: 2000 },
  );
  const daemon = new AgentDaemon(
    new AgentConfigStore(enrolled.configPath, enrolled.config),
    core,
    io,
    readHardware,
  );
  await daemon.start();
  await eventually(async () => {
    if (!daemon.store.current.lastReport) throw new Error('no first report yet');
  }, 10_000);
  return daemon;
}
