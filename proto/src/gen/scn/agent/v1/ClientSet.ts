// Original file: scn/agent/v1/agent.proto

import type { Long } from '@grpc/proto-loader';

export interface ClientSet {
  'version'?: (number | string | Long);
  'clientUuids'?: (string)[];
}

export interface ClientSet__Output {
  'version': (string);
  'clientUuids': (string)[];
}
