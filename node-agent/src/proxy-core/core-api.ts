import path from 'node:path';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import {
  type CoreAddUserOperation,
  type CoreAlterInboundRequest,
  type CoreHandlerServiceClient,
  type CoreQueryStatsResponse__Output,
  type CoreRemoveUserOperation,
  type CoreStatsServiceClient,
  type CoreVlessAccount,
  GRPC_LOADER_OPTIONS,
  PROTO_ROOT,
  PROXY_CORE_PROTOS,
  type ProxyCoreKind,
  type ProxyCoreProtos,
} from '@scn/proto';
import * as protobuf from 'protobufjs';
import { ProxyCoreException } from './proxy-core.exception';
import type { ClientTrafficCounters } from './proxy-core';

/** What an idempotent user operation found: the core's state is as asked either way. */
export type AddUserOutcome = 'added' | 'already_present';
export type RemoveUserOutcome = 'removed' | 'already_absent';

export interface CoreApiClientOptions {
  kind: ProxyCoreKind;
  apiPort: number;
  host?: string;
  /** Deadline of each call; the core answers on loopback in milliseconds. */
  callTimeoutMs?: number;
}

/*
 * The core's own messages for these cases (v2ray 4.34 proxy/vless/validator.go; Xray words them
 * the same): "User <email> already exists." and "User <email> not found.".
 */
const ALREADY_EXISTS = /already exists/i;
const NOT_FOUND = /not found/i;

const STATS_USER_PATTERN = 'user>>>';
/** `user>>>EMAIL>>>traffic>>>uplink`; the agent uses the client UUID as the email. */
const USER_COUNTER = /^user>>>(.+)>>>traffic>>>(uplink|downlink)$/;

interface LoadedCoreApi {
  protos: ProxyCoreProtos;
  handlerConstructor: grpc.ServiceClientConstructor;
  statsConstructor: grpc.ServiceClientConstructor;
  /** Xray only: a client with HandlerService.GetInboundUsers. */
  listUsers?: grpc.ServiceClientConstructor;
  root: protobuf.Root;
}

interface InboundUsersResponse {
  users?: { email?: string; level?: number }[];
}

interface InboundUsersClient extends grpc.Client {
  GetInboundUsers(
    request: { tag: string; email: string },
    options: grpc.CallOptions,
    callback: (error: grpc.ServiceError | null, value?: InboundUsersResponse) => void,
  ): grpc.ClientUnaryCall;
}

/**
 * Xray's HandlerService.GetInboundUsers (Xray 1.8.x and later; the installer pins 25.x). Not in
 * the shared .proto tree, which is v2ray's and generated for both cores, so its two messages are
 * declared here as Xray defines them (`GetInboundUserRequest { string tag = 1; string email = 2; }`,
 * `GetInboundUserResponse { repeated xray.common.protocol.User users = 1; }`).
 */
function inboundUsersConstructor(root: protobuf.Root): grpc.ServiceClientConstructor {
  const request = new protobuf.Type('ScnGetInboundUserRequest')
    .add(new protobuf.Field('tag', 1, 'string'))
    .add(new protobuf.Field('email', 2, 'string'));
  const response = new protobuf.Type('ScnGetInboundUserResponse').add(
    new protobuf.Field('users', 1, 'xray.common.protocol.User', 'repeated'),
  );
  root.define('scn.agent.xray').add(request).add(response);
  root.resolveAll();
  return grpc.makeGenericClientConstructor(
    {
      GetInboundUsers: {
        path: '/xray.app.proxyman.command.HandlerService/GetInboundUsers',
        requestStream: false,
        responseStream: false,
        requestSerialize: (value: object) =>
          Buffer.from(request.encode(request.fromObject(value)).finish()),
        requestDeserialize: (bytes: Buffer) => request.toObject(request.decode(bytes)),
        responseSerialize: (value: object) =>
          Buffer.from(response.encode(response.fromObject(value)).finish()),
        responseDeserialize: (bytes: Buffer) =>
          response.toObject(response.decode(bytes), { defaults: true }) as InboundUsersResponse,
      },
    },
    'XrayInboundUsers',
  );
}

const loaded = new Map<ProxyCoreKind, LoadedCoreApi>();

/** Loads the .proto files once per kind; the prefix (`v2ray.core.` / `xray.`) picks the tree. */
function loadCoreApi(kind: ProxyCoreKind): LoadedCoreApi {
  const cached = loaded.get(kind);
  if (cached) return cached;
  const protos = PROXY_CORE_PROTOS[kind];
  const definition = protoLoader.loadSync(
    [protos.handlerProtoPath, protos.statsProtoPath],
    GRPC_LOADER_OPTIONS,
  );
  // The typed-message payloads are encoded by hand: grpc-js only serializes the outer request.
  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) =>
    path.isAbsolute(target) ? target : path.join(PROTO_ROOT, target);
  root.loadSync([protos.handlerProtoPath, protos.vlessAccountProtoPath], { keepCase: true });
  const result: LoadedCoreApi = {
    protos,
    handlerConstructor: serviceConstructor(definition, protos.handlerService),
    statsConstructor: serviceConstructor(definition, protos.statsService),
    ...(kind === 'xray' ? { listUsers: inboundUsersConstructor(root) } : {}),
    root,
  };
  loaded.set(kind, result);
  return result;
}

function serviceConstructor(
  definition: protoLoader.PackageDefinition,
  serviceName: string,
): grpc.ServiceClientConstructor {
  const service = definition[serviceName];
  if (!service || 'format' in service) {
    throw new Error(`${serviceName} is not a service in the core's .proto files`);
  }
  return grpc.makeClientConstructor(service as grpc.ServiceDefinition, serviceName);
}

/**
 * The core's gRPC API (HandlerService, StatsService), one adapter for v2ray 4.34 and Xray: the
 * wire format is the same and only the package prefix of names and type strings differs.
 */
export class CoreApiClient {
  private readonly api: LoadedCoreApi;
  private readonly handler: CoreHandlerServiceClient;
  private readonly stats: CoreStatsServiceClient;
  private readonly callTimeoutMs: number;
  private readonly lister: InboundUsersClient | undefined;

  constructor(options: CoreApiClientOptions) {
    this.api = loadCoreApi(options.kind);
    const address = `${options.host ?? '127.0.0.1'}:${options.apiPort}`;
    const credentials = grpc.credentials.createInsecure();
    // The generated client interfaces describe exactly these constructors' instances.
    this.handler = new this.api.handlerConstructor(
      address,
      credentials,
    ) as unknown as CoreHandlerServiceClient;
    this.stats = new this.api.statsConstructor(
      address,
      credentials,
    ) as unknown as CoreStatsServiceClient;
    this.callTimeoutMs = options.callTimeoutMs ?? 5000;
    this.lister = this.api.listUsers
      ? (new this.api.listUsers(address, credentials) as unknown as InboundUsersClient)
      : undefined;
  }

  /** Adds a VLESS user (email = uuid) to the inbound; an existing user is not an error. */
  async addUser(inboundTag: string, uuid: string, flow = ''): Promise<AddUserOutcome> {
    const { protos } = this.api;
    const account: CoreVlessAccount = { id: uuid, flow, encryption: 'none' };
    const operation: CoreAddUserOperation = {
      user: {
        level: 0,
        email: uuid,
        account: {
          type: protos.vlessAccountType,
          value: this.encode(protos.vlessAccountType, account),
        },
      },
    };
    try {
      await this.alterInbound({
        tag: inboundTag,
        operation: {
          type: protos.addUserOperationType,
          value: this.encode(protos.addUserOperationType, operation),
        },
      });
      return 'added';
    } catch (error) {
      if (ALREADY_EXISTS.test(errorDetails(error))) return 'already_present';
      throw apiFailure('AddUser', error);
    }
  }

  /** Removes the user added with email = uuid; a missing user is not an error. */
  async removeUser(inboundTag: string, uuid: string): Promise<RemoveUserOutcome> {
    const { protos } = this.api;
    const operation: CoreRemoveUserOperation = { email: uuid };
    try {
      await this.alterInbound({
        tag: inboundTag,
        operation: {
          type: protos.removeUserOperationType,
          value: this.encode(protos.removeUserOperationType, operation),
        },
      });
      return 'removed';
    } catch (error) {
      if (NOT_FOUND.test(errorDetails(error))) return 'already_absent';
      throw apiFailure('RemoveUser', error);
    }
  }

  /**
   * Per-user traffic counters (since the core started, or since the last reset). A user the core
   * has carried no traffic for yet has no counters and is absent from the result.
   */
  async userTraffic(reset = false): Promise<ClientTrafficCounters[]> {
    let response: CoreQueryStatsResponse__Output;
    try {
      response = await new Promise((resolve, reject) => {
        this.stats.QueryStats(
          { pattern: STATS_USER_PATTERN, reset },
          { deadline: this.deadline() },
          (error, value) => (error || !value ? reject(error) : resolve(value)),
        );
      });
    } catch (error) {
      throw apiFailure('QueryStats', error);
    }
    const byClient = new Map<string, ClientTrafficCounters>();
    for (const stat of response.stat) {
      const match = USER_COUNTER.exec(stat.name);
      if (!match) continue;
      const [, clientUuid = '', direction] = match;
      const counters = byClient.get(clientUuid) ?? {
        clientUuid,
        uplinkBytes: 0n,
        downlinkBytes: 0n,
      };
      if (direction === 'uplink') counters.uplinkBytes = BigInt(stat.value);
      else counters.downlinkBytes = BigInt(stat.value);
      byClient.set(clientUuid, counters);
    }
    return [...byClient.values()].sort((a, b) => a.clientUuid.localeCompare(b.clientUuid));
  }

  /**
   * Every user of the inbound (their emails), through Xray's HandlerService.GetInboundUsers.
   * v2ray 4.34 has no such call: its audit reads the user counters instead (core-audit.ts).
   */
  async inboundUserEmails(inboundTag: string): Promise<string[]> {
    const listing = this.api.listUsers;
    if (!listing || !this.lister) {
      throw new ProxyCoreException(
        'core_api_failed',
        "This core's API cannot list users (v2ray 4.34 has no GetInboundUsers).",
      );
    }
    const lister = this.lister;
    try {
      const response = await new Promise<InboundUsersResponse>((resolve, reject) => {
        lister.GetInboundUsers(
          { tag: inboundTag, email: '' },
          { deadline: this.deadline() },
          (error: grpc.ServiceError | null, value?: InboundUsersResponse) =>
            error || !value ? reject(error) : resolve(value),
        );
      });
      return (response.users ?? []).map((user) => user.email ?? '');
    } catch (error) {
      throw apiFailure('GetInboundUsers', error);
    }
  }

  /** Resolves when the API answers a call (the core is up and serving). */
  async ping(): Promise<void> {
    await this.userTraffic(false);
  }

  close(): void {
    this.lister?.close();
    this.handler.close();
    this.stats.close();
  }

  private alterInbound(request: CoreAlterInboundRequest): Promise<void> {
    return new Promise((resolve, reject) => {
      this.handler.AlterInbound(request, { deadline: this.deadline() }, (error) =>
        error ? reject(error) : resolve(),
      );
    });
  }

  private encode(typeName: string, message: object): Uint8Array {
    const type = this.api.root.lookupType(typeName);
    return type.encode(type.fromObject(message)).finish();
  }

  private deadline(): Date {
    return new Date(Date.now() + this.callTimeoutMs);
  }
}

function errorDetails(error: unknown): string {
  if (error && typeof error === 'object' && 'details' in error) return String(error.details);
  return error instanceof Error ? error.message : String(error);
}

function apiFailure(call: string, error: unknown): ProxyCoreException {
  return new ProxyCoreException(
    'core_api_failed',
    `The proxy core's API refused ${call}: ${errorDetails(error)}`,
  );
}
