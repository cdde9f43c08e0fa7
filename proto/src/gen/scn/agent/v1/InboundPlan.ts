// Original file: scn/agent/v1/agent.proto

import type { Long } from '@grpc/proto-loader';

export interface InboundPlan {
  'port'?: (number);
  'security'?: (string);
  'network'?: (string);
  'revision'?: (number | string | Long);
}

export interface InboundPlan__Output {
  'port': (number);
  'security': (string);
  'network': (string);
  'revision': (string);
}
