import type { AgentServiceClient } from '@scn/proto';
import { registerAccount } from './accounts';
import { enroll, nodeMetadata, TIER1_HARDWARE } from './agent-client';
import type { TestApp } from './test-app';

/** A new operator and an enrollment token of theirs for `tier` (the setup wizard's call). */
export async function operatorWithToken(t: TestApp, tier = 'tier2') {
  const operator = await registerAccount(t, { userType: 'node' });
  const res = await t
    .http()
    .post('/api/nodes/enrollment-tokens')
    .set('Authorization', `Bearer ${operator.token}`)
    .send({ tier })
    .expect(201);
  return {
    operator,
    token: res.body.token as string,
    installCommand: res.body.installCommand as string,
  };
}

/**
 * A new operator's node (tier 2 unless told), enrolled through the real calls (an enrollment token over
 * REST, Enroll over gRPC): the operator, the node's id, Enroll's answer and the node's
 * credentials as gRPC metadata.
 */
export async function enrolledNode(
  t: TestApp,
  client: AgentServiceClient,
  tier: 'tier1' | 'tier2' = 'tier2',
) {
  const { operator, token } = await operatorWithToken(t, tier);
  const node = await enroll(client, {
    enrollmentToken: token,
    tier: tier === 'tier1' ? 'TIER_1' : 'TIER_2',
    agentVersion: '0.1.0',
    hardware: TIER1_HARDWARE,
  });
  return {
    operator,
    id: node.nodeId,
    node,
    metadata: nodeMetadata(node.nodeId, node.nodeSecret),
  };
}
