// Original file: v2ray/core/app/stats/command/command.proto

import type { Stat as _v2ray_core_app_stats_command_Stat, Stat__Output as _v2ray_core_app_stats_command_Stat__Output } from '../../../../../v2ray/core/app/stats/command/Stat';

export interface GetStatsResponse {
  'stat'?: (_v2ray_core_app_stats_command_Stat | null);
}

export interface GetStatsResponse__Output {
  'stat': (_v2ray_core_app_stats_command_Stat__Output | null);
}
