import type { AgentServiceClient } from '@scn/proto';
import type { Clock } from '../../src/common/clock';
import { AgentGrpcServer } from '../../src/grpc/agent-grpc.server';
import { agentClient } from './agent-client';
import { startTestApp, type TestApp } from './test-app';

/** A clock that stands still unless the test moves it (limits refill, reports age only then). */
export class SteppedClock implements Clock {
  constructor(public at: Date) {}

  now(): Date {
    return this.at;
  }

  advance(ms: number): Date {
    this.at = new Date(this.at.getTime() + ms);
    return this.at;
  }
}

/**
 * The agent-facing suites: the built control plane on `clock` and a gRPC agent client to it,
 * started before the file's tests and closed after them; `use` gets both once started.
 */
export function useAgentApp(
  clock: Clock,
  use: (app: TestApp, client: AgentServiceClient) => void,
): void {
  let app: TestApp | undefined;
  let client: AgentServiceClient | undefined;
  beforeAll(async () => {
    app = await startTestApp({}, { clock });
    client = agentClient(app.app.get(AgentGrpcServer).port);
    use(app, client);
  });
  afterAll(async () => {
    client?.close();
    await app?.close();
  });
}
