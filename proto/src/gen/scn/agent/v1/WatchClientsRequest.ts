// Original file: scn/agent/v1/agent.proto

import type { Long } from '@grpc/proto-loader';

export interface WatchClientsRequest {
  'knownVersion'?: (number | string | Long);
}

export interface WatchClientsRequest__Output {
  'knownVersion': (string);
}
