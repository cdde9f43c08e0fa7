import * as grpc from '@grpc/grpc-js';
import type { Logger } from '@nestjs/common';
import { AGENT_METADATA, type AgentServiceHandlers, PROBE_ERROR_CLASSES } from '@scn/proto';
import { z } from 'zod';
import type { CallOrigin, VantagePointsService } from '../reachability/vantage-points.service';
import { GrpcFailure, parseRequest, toServiceError } from './grpc-errors';

const enrollProbeSchema = z.object({
  enrollmentToken: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'enrollmentToken is malformed'),
  agentVersion: z.string().max(32, 'agentVersion is too long').min(1, 'agentVersion is required'),
  name: z.string().max(100, 'name is too long'),
});

const probeResultSchema = z.object({
  serverId: z.string().max(36),
  planRevision: z.string().regex(/^\d{1,18}$/, 'planRevision must be a whole number'),
  tcpOk: z.boolean(),
  tcpMs: z.number().int().min(0),
  handshakeOk: z.boolean(),
  vlessOk: z.boolean(),
  totalMs: z.number().int().min(0),
  errorClass: z.enum(PROBE_ERROR_CLASSES, {
    error: `errorClass must be one of ${PROBE_ERROR_CLASSES.join(', ')}`,
  }),
});
const probeReportSchema = z.object({
  agentVersion: z.string().max(32, 'agentVersion is too long'),
  results: z.array(probeResultSchema).max(1000, 'at most 1000 results per report'),
});
const probeTasksSchema = z.object({ agentVersion: z.string().max(32, 'agentVersion is too long') });

/** The address a call came from (`ipv4:1.2.3.4:5`, `ipv6:[::1]:5`): GeoIP places the vantage point by it. */
export function peerAddress(peer: string): string {
  const text = peer.replace(/^ipv[46]:/, '');
  const bracketed = /^\[([^\]]+)\]/.exec(text);
  if (bracketed) return bracketed[1]!;
  const colon = text.lastIndexOf(':');
  return colon > 0 && text.indexOf(':') === colon ? text.slice(0, colon) : text;
}

type ProbeHandlers = Pick<AgentServiceHandlers, 'EnrollProbe' | 'ProbeTasks' | 'ReportProbe'>;

/**
 * The vantage points' calls (docs/reachability.md): validated here, answered by
 * VantagePointsService. A vantage point's network is read from the call's peer address.
 */
export function probeHandlers(probes: VantagePointsService, logger: Logger): ProbeHandlers {
  const credentialOf = (metadata: grpc.Metadata) => {
    const id = metadata.get(AGENT_METADATA.probeId)[0];
    const authorization = metadata.get(AGENT_METADATA.authorization)[0];
    const bearer =
      typeof authorization === 'string' ? /^Bearer\s+(\S+)$/i.exec(authorization)?.[1] : undefined;
    if (typeof id !== 'string' || !bearer) {
      throw new GrpcFailure(
        grpc.status.UNAUTHENTICATED,
        `Missing ${AGENT_METADATA.probeId} or bearer credential`,
      );
    }
    return { id, bearer };
  };
  const origin = (
    call: grpc.ServerUnaryCall<unknown, unknown>,
    agentVersion: string,
  ): CallOrigin => ({
    address: peerAddress(call.getPeer()),
    agentVersion,
  });
  const answer = <T>(work: () => Promise<T>, callback: grpc.sendUnaryData<T>) => {
    Promise.resolve()
      .then(work)
      .then(
        (response) => callback(null, response),
        (error: unknown) => callback(toServiceError(error, logger)),
      );
  };
  return {
    EnrollProbe: (call, callback) =>
      answer(async () => {
        const request = parseRequest(enrollProbeSchema, call.request);
        return probes.enroll(request, origin(call, request.agentVersion));
      }, callback),
    ProbeTasks: (call, callback) =>
      answer(async () => {
        const { id, bearer } = credentialOf(call.metadata);
        const request = parseRequest(probeTasksSchema, call.request);
        const probe = await probes.authenticate(id, bearer, origin(call, request.agentVersion));
        return probes.tasks(probe);
      }, callback),
    ReportProbe: (call, callback) =>
      answer(async () => {
        const { id, bearer } = credentialOf(call.metadata);
        const request = parseRequest(probeReportSchema, call.request);
        const probe = await probes.authenticate(id, bearer, origin(call, request.agentVersion));
        const accepted = await probes.report(probe, request.results);
        return { accepted, nextIntervalMs: probes.intervalMs };
      }, callback),
  };
}
