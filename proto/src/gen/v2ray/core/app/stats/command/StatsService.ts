// Original file: v2ray/core/app/stats/command/command.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { GetStatsRequest as _v2ray_core_app_stats_command_GetStatsRequest, GetStatsRequest__Output as _v2ray_core_app_stats_command_GetStatsRequest__Output } from '../../../../../v2ray/core/app/stats/command/GetStatsRequest';
import type { GetStatsResponse as _v2ray_core_app_stats_command_GetStatsResponse, GetStatsResponse__Output as _v2ray_core_app_stats_command_GetStatsResponse__Output } from '../../../../../v2ray/core/app/stats/command/GetStatsResponse';
import type { QueryStatsRequest as _v2ray_core_app_stats_command_QueryStatsRequest, QueryStatsRequest__Output as _v2ray_core_app_stats_command_QueryStatsRequest__Output } from '../../../../../v2ray/core/app/stats/command/QueryStatsRequest';
import type { QueryStatsResponse as _v2ray_core_app_stats_command_QueryStatsResponse, QueryStatsResponse__Output as _v2ray_core_app_stats_command_QueryStatsResponse__Output } from '../../../../../v2ray/core/app/stats/command/QueryStatsResponse';

export interface StatsServiceClient extends grpc.Client {
  GetStats(argument: _v2ray_core_app_stats_command_GetStatsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_v2ray_core_app_stats_command_GetStatsResponse__Output>): grpc.ClientUnaryCall;
  GetStats(argument: _v2ray_core_app_stats_command_GetStatsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_v2ray_core_app_stats_command_GetStatsResponse__Output>): grpc.ClientUnaryCall;
  GetStats(argument: _v2ray_core_app_stats_command_GetStatsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_v2ray_core_app_stats_command_GetStatsResponse__Output>): grpc.ClientUnaryCall;
  GetStats(argument: _v2ray_core_app_stats_command_GetStatsRequest, callback: grpc.requestCallback<_v2ray_core_app_stats_command_GetStatsResponse__Output>): grpc.ClientUnaryCall;
  getStats(argument: _v2ray_core_app_stats_command_GetStatsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_v2ray_core_app_stats_command_GetStatsResponse__Output>): grpc.ClientUnaryCall;
  getStats(argument: _v2ray_core_app_stats_command_GetStatsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_v2ray_core_app_stats_command_GetStatsResponse__Output>): grpc.ClientUnaryCall;
  getStats(argument: _v2ray_core_app_stats_command_GetStatsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_v2ray_core_app_stats_command_GetStatsResponse__Output>): grpc.ClientUnaryCall;
  getStats(argument: _v2ray_core_app_stats_command_GetStatsRequest, callback: grpc.requestCallback<_v2ray_core_app_stats_command_GetStatsResponse__Output>): grpc.ClientUnaryCall;
  
  QueryStats(argument: _v2ray_core_app_stats_command_QueryStatsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_v2ray_core_app_stats_command_QueryStatsResponse__Output>): grpc.ClientUnaryCall;
  QueryStats(argument: _v2ray_core_app_stats_command_QueryStatsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_v2ray_core_app_stats_command_QueryStatsResponse__Output>): grpc.ClientUnaryCall;
  QueryStats(argument: _v2ray_core_app_stats_command_QueryStatsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_v2ray_core_app_stats_command_QueryStatsResponse__Output>): grpc.ClientUnaryCall;
  QueryStats(argument: _v2ray_core_app_stats_command_QueryStatsRequest, callback: grpc.requestCallback<_v2ray_core_app_stats_command_QueryStatsResponse__Output>): grpc.ClientUnaryCall;
  queryStats(argument: _v2ray_core_app_stats_command_QueryStatsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_v2ray_core_app_stats_command_QueryStatsResponse__Output>): grpc.ClientUnaryCall;
  queryStats(argument: _v2ray_core_app_stats_command_QueryStatsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_v2ray_core_app_stats_command_QueryStatsResponse__Output>): grpc.ClientUnaryCall;
  queryStats(argument: _v2ray_core_app_stats_command_QueryStatsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_v2ray_core_app_stats_command_QueryStatsResponse__Output>): grpc.ClientUnaryCall;
  queryStats(argument: _v2ray_core_app_stats_command_QueryStatsRequest, callback: grpc.requestCallback<_v2ray_core_app_stats_command_QueryStatsResponse__Output>): grpc.ClientUnaryCall;
  
}

export interface StatsServiceHandlers extends grpc.UntypedServiceImplementation {
  GetStats: grpc.handleUnaryCall<_v2ray_core_app_stats_command_GetStatsRequest__Output, _v2ray_core_app_stats_command_GetStatsResponse>;
  
  QueryStats: grpc.handleUnaryCall<_v2ray_core_app_stats_command_QueryStatsRequest__Output, _v2ray_core_app_stats_command_QueryStatsResponse>;
  
}

export interface StatsServiceDefinition extends grpc.ServiceDefinition {
  GetStats: MethodDefinition<_v2ray_core_app_stats_command_GetStatsRequest, _v2ray_core_app_stats_command_GetStatsResponse, _v2ray_core_app_stats_command_GetStatsRequest__Output, _v2ray_core_app_stats_command_GetStatsResponse__Output>
  QueryStats: MethodDefinition<_v2ray_core_app_stats_command_QueryStatsRequest, _v2ray_core_app_stats_command_QueryStatsResponse, _v2ray_core_app_stats_command_QueryStatsRequest__Output, _v2ray_core_app_stats_command_QueryStatsResponse__Output>
}
