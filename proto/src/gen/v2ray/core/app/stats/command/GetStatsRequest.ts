// Original file: v2ray/core/app/stats/command/command.proto


export interface GetStatsRequest {
  'name'?: (string);
  'reset'?: (boolean);
}

export interface GetStatsRequest__Output {
  'name': (string);
  'reset': (boolean);
}
