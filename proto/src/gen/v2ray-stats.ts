import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { GetStatsRequest as _v2ray_core_app_stats_command_GetStatsRequest, GetStatsRequest__Output as _v2ray_core_app_stats_command_GetStatsRequest__Output } from './v2ray/core/app/stats/command/GetStatsRequest';
import type { GetStatsResponse as _v2ray_core_app_stats_command_GetStatsResponse, GetStatsResponse__Output as _v2ray_core_app_stats_command_GetStatsResponse__Output } from './v2ray/core/app/stats/command/GetStatsResponse';
import type { QueryStatsRequest as _v2ray_core_app_stats_command_QueryStatsRequest, QueryStatsRequest__Output as _v2ray_core_app_stats_command_QueryStatsRequest__Output } from './v2ray/core/app/stats/command/QueryStatsRequest';
import type { QueryStatsResponse as _v2ray_core_app_stats_command_QueryStatsResponse, QueryStatsResponse__Output as _v2ray_core_app_stats_command_QueryStatsResponse__Output } from './v2ray/core/app/stats/command/QueryStatsResponse';
import type { Stat as _v2ray_core_app_stats_command_Stat, Stat__Output as _v2ray_core_app_stats_command_Stat__Output } from './v2ray/core/app/stats/command/Stat';
import type { StatsServiceClient as _v2ray_core_app_stats_command_StatsServiceClient, StatsServiceDefinition as _v2ray_core_app_stats_command_StatsServiceDefinition } from './v2ray/core/app/stats/command/StatsService';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  v2ray: {
    core: {
      app: {
        stats: {
          command: {
            GetStatsRequest: MessageTypeDefinition<_v2ray_core_app_stats_command_GetStatsRequest, _v2ray_core_app_stats_command_GetStatsRequest__Output>
            GetStatsResponse: MessageTypeDefinition<_v2ray_core_app_stats_command_GetStatsResponse, _v2ray_core_app_stats_command_GetStatsResponse__Output>
            QueryStatsRequest: MessageTypeDefinition<_v2ray_core_app_stats_command_QueryStatsRequest, _v2ray_core_app_stats_command_QueryStatsRequest__Output>
            QueryStatsResponse: MessageTypeDefinition<_v2ray_core_app_stats_command_QueryStatsResponse, _v2ray_core_app_stats_command_QueryStatsResponse__Output>
            Stat: MessageTypeDefinition<_v2ray_core_app_stats_command_Stat, _v2ray_core_app_stats_command_Stat__Output>
            StatsService: SubtypeConstructor<typeof grpc.Client, _v2ray_core_app_stats_command_StatsServiceClient> & { service: _v2ray_core_app_stats_command_StatsServiceDefinition }
          }
        }
      }
    }
  }
}

