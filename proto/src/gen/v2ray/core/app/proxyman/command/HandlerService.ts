// Original file: v2ray/core/app/proxyman/command/command.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { AlterInboundRequest as _v2ray_core_app_proxyman_command_AlterInboundRequest, AlterInboundRequest__Output as _v2ray_core_app_proxyman_command_AlterInboundRequest__Output } from '../../../../../v2ray/core/app/proxyman/command/AlterInboundRequest';
import type { AlterInboundResponse as _v2ray_core_app_proxyman_command_AlterInboundResponse, AlterInboundResponse__Output as _v2ray_core_app_proxyman_command_AlterInboundResponse__Output } from '../../../../../v2ray/core/app/proxyman/command/AlterInboundResponse';

export interface HandlerServiceClient extends grpc.Client {
  AlterInbound(argument: _v2ray_core_app_proxyman_command_AlterInboundRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_v2ray_core_app_proxyman_command_AlterInboundResponse__Output>): grpc.ClientUnaryCall;
  AlterInbound(argument: _v2ray_core_app_proxyman_command_AlterInboundRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_v2ray_core_app_proxyman_command_AlterInboundResponse__Output>): grpc.ClientUnaryCall;
  AlterInbound(argument: _v2ray_core_app_proxyman_command_AlterInboundRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_v2ray_core_app_proxyman_command_AlterInboundResponse__Output>): grpc.ClientUnaryCall;
  AlterInbound(argument: _v2ray_core_app_proxyman_command_AlterInboundRequest, callback: grpc.requestCallback<_v2ray_core_app_proxyman_command_AlterInboundResponse__Output>): grpc.ClientUnaryCall;
  alterInbound(argument: _v2ray_core_app_proxyman_command_AlterInboundRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_v2ray_core_app_proxyman_command_AlterInboundResponse__Output>): grpc.ClientUnaryCall;
  alterInbound(argument: _v2ray_core_app_proxyman_command_AlterInboundRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_v2ray_core_app_proxyman_command_AlterInboundResponse__Output>): grpc.ClientUnaryCall;
  alterInbound(argument: _v2ray_core_app_proxyman_command_AlterInboundRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_v2ray_core_app_proxyman_command_AlterInboundResponse__Output>): grpc.ClientUnaryCall;
  alterInbound(argument: _v2ray_core_app_proxyman_command_AlterInboundRequest, callback: grpc.requestCallback<_v2ray_core_app_proxyman_command_AlterInboundResponse__Output>): grpc.ClientUnaryCall;
  
}

export interface HandlerServiceHandlers extends grpc.UntypedServiceImplementation {
  AlterInbound: grpc.handleUnaryCall<_v2ray_core_app_proxyman_command_AlterInboundRequest__Output, _v2ray_core_app_proxyman_command_AlterInboundResponse>;
  
}

export interface HandlerServiceDefinition extends grpc.ServiceDefinition {
  AlterInbound: MethodDefinition<_v2ray_core_app_proxyman_command_AlterInboundRequest, _v2ray_core_app_proxyman_command_AlterInboundResponse, _v2ray_core_app_proxyman_command_AlterInboundRequest__Output, _v2ray_core_app_proxyman_command_AlterInboundResponse__Output>
}
