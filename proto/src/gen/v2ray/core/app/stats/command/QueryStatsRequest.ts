// Original file: v2ray/core/app/stats/command/command.proto


export interface QueryStatsRequest {
  'pattern'?: (string);
  'reset'?: (boolean);
}

export interface QueryStatsRequest__Output {
  'pattern': (string);
  'reset': (boolean);
}
