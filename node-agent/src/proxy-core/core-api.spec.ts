import * as grpc from '@grpc/grpc-js';
import * as protobuf from 'protobufjs';
import { CoreApiClient } from './core-api';

/**
 * Xray's HandlerService.GetInboundUsers as Xray 25.x serves it, written out from its published
 * .proto (app/proxyman/command/command.proto, common/protocol/user.proto, typed_message.proto)
 * independently of the agent's own declaration. No Xray binary is available to the tests, so
 * this server checks the agent's wire format: the method path, the request's field numbers and
 * the decoding of the users it answers.
 */
const XRAY_WIRE = protobuf.parse(`
  syntax = "proto3";
  package xray.app.proxyman.command;
  message TypedMessage { string type = 1; bytes value = 2; }
  message User { uint32 level = 1; string email = 2; TypedMessage account = 3; }
  message GetInboundUserRequest { string tag = 1; string email = 2; }
  message GetInboundUserResponse { repeated User users = 1; }
`).root;
const Request = XRAY_WIRE.lookupType('xray.app.proxyman.command.GetInboundUserRequest');
const Response = XRAY_WIRE.lookupType('xray.app.proxyman.command.GetInboundUserResponse');

describe('CoreApiClient.inboundUserEmails', () => {
  let server: grpc.Server;
  let port: number;
  const requests: Array<Record<string, unknown>> = [];

  beforeAll(async () => {
    server = new grpc.Server();
    server.addService(
      {
        GetInboundUsers: {
          path: '/xray.app.proxyman.command.HandlerService/GetInboundUsers',
          requestStream: false,
          responseStream: false,
          requestDeserialize: (bytes: Buffer) => Request.toObject(Request.decode(bytes)),
          requestSerialize: (value: object) => Buffer.from(Request.encode(value).finish()),
          responseSerialize: (value: object) =>
            Buffer.from(Response.encode(Response.fromObject(value)).finish()),
          responseDeserialize: (bytes: Buffer) => Response.decode(bytes),
        },
      },
      {
        GetInboundUsers: (
          call: grpc.ServerUnaryCall<Record<string, unknown>, object>,
          callback: grpc.sendUnaryData<object>,
        ) => {
          requests.push(call.request);
          if (call.request.tag !== 'vless-in') {
            callback({ code: grpc.status.UNKNOWN, details: 'handler not found: x' });
            return;
          }
          callback(null, {
            users: [
              {
                level: 0,
                email: '5b7f3c2e-8d41-4a6f-9e2b-1c3d4e5f6a7b',
                account: { type: 'xray.proxy.vless.Account', value: Buffer.from([10, 1, 97]) },
              },
              { level: 7, email: '' },
            ],
          });
        },
      },
    );
    port = await new Promise<number>((resolve, reject) =>
      server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, bound) =>
        error ? reject(error) : resolve(bound),
      ),
    );
  });

  afterAll(() => server.forceShutdown());

  it('should list every user of the inbound with its email when the core is Xray', async () => {
    const api = new CoreApiClient({ kind: 'xray', apiPort: port });
    try {
      expect(await api.inboundUserEmails('vless-in')).toEqual([
        '5b7f3c2e-8d41-4a6f-9e2b-1c3d4e5f6a7b',
        '',
      ]);
      // An empty email asks for every user of the inbound.
      expect({ email: '', ...requests.at(-1) }).toEqual({ tag: 'vless-in', email: '' });
    } finally {
      api.close();
    }
  });

  it('should report a refused listing as a core API failure', async () => {
    const api = new CoreApiClient({ kind: 'xray', apiPort: port });
    try {
      await expect(api.inboundUserEmails('other')).rejects.toThrow(/refused GetInboundUsers/);
    } finally {
      api.close();
    }
  });

  it('should refuse to list users when the core is v2ray 4.34', async () => {
    const api = new CoreApiClient({ kind: 'v2ray', apiPort: port });
    try {
      await expect(api.inboundUserEmails('vless-in')).rejects.toThrow(/cannot list users/);
    } finally {
      api.close();
    }
  });
});
