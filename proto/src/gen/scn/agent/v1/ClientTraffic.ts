// Original file: scn/agent/v1/agent.proto

import type { Long } from '@grpc/proto-loader';

export interface ClientTraffic {
  'clientUuid'?: (string);
  'uplinkBytes'?: (number | string | Long);
  'downlinkBytes'?: (number | string | Long);
}

export interface ClientTraffic__Output {
  'clientUuid': (string);
  'uplinkBytes': (string);
  'downlinkBytes': (string);
}
