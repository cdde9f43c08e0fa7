import type { AgentServiceClient } from '@scn/proto';
import { registerAccount } from './accounts';
import { enroll, nodeMetadata, TIER1_HARDWARE } from './agent-client';
import type { TestApp } from './test-app';

/**
 * A new operator's tier-2 node, enrolled through the real calls (an enrollment token over
 * REST, Enroll over gRPC): the operator, the node's id and its credentials as gRPC metadata.
 */
export async function enrolledNode(t: TestApp, client: AgentServiceClient) {
  const operator = await registerAccount(t, { userType: 'node' });
  const { body } = await t
    .http()
    .post('/api/nodes/enrollment-tokens')
    .set('Authorization', `Bearer ${operator.token}`)
    .send({ tier: 'tier2' })
    .expect(201);
  const node = await enroll(client, {
    enrollmentToken: body.token as string,
    tier: 'TIER_2',
    agentVersion: '0.1.0',
    hardware: TIER1_HARDWARE,
  });
  return { operator, id: node.nodeId, metadata: nodeMetadata(node.nodeId, node.nodeSecret) };
}
