import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AgentGrpcServer } from '../../src/grpc/agent-grpc.server';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * Demo nodes used fixed loopback ports (20001+, 21001+), so two instances on one
 * machine collided. The ports scripts/start.mjs enrolls and runs the demo agents with now come
 * from DEMO_NODE_PORT and DEMO_CORE_API_PORT, through the enrollment file the control plane writes.
 */
let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ DEMO_NODES: '2', DEMO_NODE_PORT: '40101', DEMO_CORE_API_PORT: '40201' });
});
afterAll(() => t.close());

describe('demo node ports', () => {
  it('should hand the demo agents the ports of DEMO_NODE_PORT and DEMO_CORE_API_PORT', () => {
    const enrollment = JSON.parse(
      readFileSync(join(t.config.dataDir, 'demo', 'enrollment.json'), 'utf8'),
    ) as {
      grpcTarget: string;
      tokens: string[];
      ports: Array<{ publicPort: number; coreApiPort: number }>;
    };
    // GRPC_PORT=0: the file is written once the gRPC server is bound, with the port it got.
    expect(enrollment.grpcTarget).toMatch(new RegExp(`:${t.app.get(AgentGrpcServer).port}$`));
    expect(enrollment.tokens).toHaveLength(2);
    expect(enrollment.ports).toEqual([
      { publicPort: 40101, coreApiPort: 40201 },
      { publicPort: 40102, coreApiPort: 40202 },
    ]);
  });
});
