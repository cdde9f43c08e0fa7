import path from 'node:path';
import type { Options } from '@grpc/proto-loader';

/**
 * The folder holding the .proto trees (scn/, v2ray/, xray/) and the include root for their
 * imports. This file runs as src/grpc.ts (tests) or dist/grpc.js (build): both sit one level
 * below the package root, beside which the .proto files live.
 */
export const PROTO_ROOT = path.join(__dirname, '..');

/** The agent <-> control plane contract. */
export const AGENT_PACKAGE = 'scn.agent.v1';
export const AGENT_SERVICE = `${AGENT_PACKAGE}.AgentService`;
export const AGENT_PROTO_FILE = 'scn/agent/v1/agent.proto';
export const AGENT_PROTO_PATH = path.join(PROTO_ROOT, AGENT_PROTO_FILE);

/** Every proto-loader caller uses these; the generated types in src/gen assume them. */
export const GRPC_LOADER_OPTIONS: Options = {
  keepCase: false,
  longs: String,
  enums: String,
  defaults: true,
  oneofs: true,
  includeDirs: [PROTO_ROOT],
};

/** Metadata keys of every authenticated agent call (see agent.proto). */
export const AGENT_METADATA = {
  /** `Bearer <node secret>` */
  authorization: 'authorization',
  nodeId: 'x-scn-node-id',
  /** A vantage point's id (`scn-agent probe`), with its secret as the bearer. */
  probeId: 'x-scn-probe-id',
} as const;

/**
 * The proxy cores speak one wire format whose names differ only by package prefix. The xray/
 * tree is generated from v2ray/ by scripts/gen.mjs, so both are always the same contract.
 */
export type ProxyCoreKind = 'v2ray' | 'xray';

export interface ProxyCoreProtos {
  /** Prefix of every package and typed-message type string, e.g. `v2ray.core.`. */
  packagePrefix: string;
  /** Absolute paths of the handler (AlterInbound), stats and VLESS account .proto files. */
  handlerProtoPath: string;
  statsProtoPath: string;
  vlessAccountProtoPath: string;
  /** Fully-qualified names, for lookups in the loaded package definition. */
  handlerService: string;
  statsService: string;
  /** TypedMessage.type strings the core expects. */
  addUserOperationType: string;
  removeUserOperationType: string;
  vlessAccountType: string;
}

function coreProtos(kind: ProxyCoreKind): ProxyCoreProtos {
  const dir = kind === 'v2ray' ? 'v2ray/core' : 'xray';
  const prefix = kind === 'v2ray' ? 'v2ray.core.' : 'xray.';
  return {
    packagePrefix: prefix,
    handlerProtoPath: path.join(PROTO_ROOT, dir, 'app/proxyman/command/command.proto'),
    statsProtoPath: path.join(PROTO_ROOT, dir, 'app/stats/command/command.proto'),
    vlessAccountProtoPath: path.join(PROTO_ROOT, dir, 'proxy/vless/account.proto'),
    handlerService: `${prefix}app.proxyman.command.HandlerService`,
    statsService: `${prefix}app.stats.command.StatsService`,
    addUserOperationType: `${prefix}app.proxyman.command.AddUserOperation`,
    removeUserOperationType: `${prefix}app.proxyman.command.RemoveUserOperation`,
    vlessAccountType: `${prefix}proxy.vless.Account`,
  };
}

export const PROXY_CORE_PROTOS: Readonly<Record<ProxyCoreKind, ProxyCoreProtos>> = {
  v2ray: coreProtos('v2ray'),
  xray: coreProtos('xray'),
};
