import * as grpc from '@grpc/grpc-js';
import type { AgentServiceClient } from '@scn/proto';
import { REPORT_BURST, REPORT_REFILL_MS } from '../../src/grpc/report-rate-limiter';
import { agentReport, nodeMetadata, report, reportStream } from '../support/agent-client';
import { enrolledNode } from '../support/enrolled-node';
import type { TestApp } from '../support/test-app';
import { SteppedClock, useAgentApp } from '../support/agent-app';

// Time stands still unless a test moves it: the allowance refills only when it does.
const clock = new SteppedClock(new Date('2026-11-24T00:00:00Z'));
const advance = (ms: number) => clock.advance(ms);

let t: TestApp;
let client: AgentServiceClient;
useAgentApp(clock, (app, agent) => {
  t = app;
  client = agent;
});

/** 'ok', or the status and message a call was refused with. */
const outcome = (promise: Promise<unknown>) =>
  promise.then(
    () => 'ok',
    (error: grpc.ServiceError) => `${grpc.status[error.code]}: ${error.details}`,
  );

const uptimeOf = async (id: string) =>
  Number(
    (await t.db.query('SELECT uptime_seconds FROM servers WHERE id = $1', [id]))[0]?.uptime_seconds,
  );

describe('per-node report allowance', () => {
  it('should refuse a node sending 1,000 reports at once after its burst, and leave another node alone (unary Report)', async () => {
    const flood = await enrolledNode(t, client);
    const quiet = await enrolledNode(t, client);
    for (let i = 1; i <= REPORT_BURST; i += 1) {
      expect(await outcome(report(client, flood.metadata, agentReport(i)))).toBe('ok');
    }
    const answers = await Promise.all(
      Array.from({ length: 1000 }, (_, i) =>
        outcome(report(client, flood.metadata, agentReport(1000 + i))),
      ),
    );
    expect(new Set(answers)).toEqual(
      new Set([
        'RESOURCE_EXHAUSTED: Too many reports from this node: after a burst of 20, one every 6 s (agents report every 60 s); retry in 6 s',
      ]),
    );
    expect(await uptimeOf(flood.id)).toBe(REPORT_BURST);

    // The other node was never held back, and has its whole burst.
    for (let i = 1; i <= REPORT_BURST; i += 1) {
      expect(await outcome(report(client, quiet.metadata, agentReport(i)))).toBe('ok');
    }

    // The allowance refills at one report per 6 s.
    advance(REPORT_REFILL_MS);
    expect(await outcome(report(client, flood.metadata, agentReport(5000)))).toBe('ok');
    expect(await outcome(report(client, flood.metadata, agentReport(5001)))).toMatch(
      /^RESOURCE_EXHAUSTED: /,
    );
    expect(await uptimeOf(flood.id)).toBe(5000);
    // 1,000 calls at once: seconds on a busy or slow machine (a newcomer's laptop), not 30.
  }, 120_000);

  it('should end a ReportStream that goes over the allowance, shared with unary Report, and leave another node streaming', async () => {
    advance(60 * 60_000);
    const flood = await enrolledNode(t, client);
    const quiet = await enrolledNode(t, client);
    const floodStream = reportStream(client, flood.metadata);
    const quietStream = reportStream(client, quiet.metadata);
    for (let i = 1; i <= REPORT_BURST / 2; i += 1) {
      expect((await floodStream.send(agentReport(i))).accepted).toBe(true);
    }
    for (let i = REPORT_BURST / 2 + 1; i <= REPORT_BURST; i += 1) {
      expect(await outcome(report(client, flood.metadata, agentReport(i)))).toBe('ok');
    }
    expect(await outcome(floodStream.send(agentReport(999)))).toMatch(
      /^RESOURCE_EXHAUSTED: Too many reports from this node/,
    );
    expect((await floodStream.ended).code).toBe(grpc.status.RESOURCE_EXHAUSTED);
    expect(await uptimeOf(flood.id)).toBe(REPORT_BURST);

    for (let i = 1; i <= 5; i += 1) {
      expect((await quietStream.send(agentReport(i))).accepted).toBe(true);
    }
    expect((await quietStream.end()).code).toBe(grpc.status.OK);
  });

  it('should not let calls that only name a node use up its allowance', async () => {
    advance(60 * 60_000);
    const victim = await enrolledNode(t, client);
    const forged = nodeMetadata(victim.id, `${victim.id}.not-the-secret`);
    for (let i = 0; i < 30; i += 1) {
      expect(await outcome(report(client, forged, agentReport(i)))).toMatch(/^UNAUTHENTICATED/);
    }
    for (let i = 1; i <= REPORT_BURST; i += 1) {
      expect(await outcome(report(client, victim.metadata, agentReport(i)))).toBe('ok');
    }
  });
});
