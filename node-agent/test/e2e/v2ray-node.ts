import path from 'node:path';
import { enroll, type EnrollDeps } from '../../src/commands/enroll';
import { type AgentConfig, readAgentConfig } from '../../src/config/agent-config';
import type { TestApp } from './control-plane-kit';
import { freePort } from './proxy-core.support';

export const V2RAY = '/usr/bin/v2ray';

/**
 * A node as an operator makes one: the setup wizard's enrollment token (tier1), then the real
 * `scn-agent enroll` over gRPC on loopback, set up to run Debian's v2ray on free loopback
 * ports under `workDir`. Answers the agent's config file and what it holds.
 */
export async function enrollV2rayNode(
  t: TestApp,
  options: { operatorToken: string; grpcPort: number; workDir: string; io: EnrollDeps['io'] },
): Promise<{ configPath: string; config: AgentConfig }> {
  const tokenResponse = await t
    .http()
    .post('/api/nodes/enrollment-tokens')
    .set('Authorization', `Bearer ${options.operatorToken}`)
    .send({ tier: 'tier1' })
    .expect(201);
  const configPath = path.join(options.workDir, 'agent', 'config.json');
  await enroll(
    {
      server: `127.0.0.1:${options.grpcPort}`,
      token: (tokenResponse.body as { token: string }).token,
      tier: 'tier1',
      publicHost: '127.0.0.1',
      publicPort: String(await freePort()),
      core: 'v2ray',
      coreBinary: V2RAY,
      coreApiPort: String(await freePort()),
      coreWorkDir: path.join(options.workDir, 'core'),
      config: configPath,
    },
    { io: options.io },
  );
  return { configPath, config: await readAgentConfig(configPath) };
}
