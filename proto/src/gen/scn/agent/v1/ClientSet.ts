// Original file: scn/agent/v1/agent.proto

import type { InboundPlan as _scn_agent_v1_InboundPlan, InboundPlan__Output as _scn_agent_v1_InboundPlan__Output } from '../../../scn/agent/v1/InboundPlan';
import type { Long } from '@grpc/proto-loader';

export interface ClientSet {
  'version'?: (number | string | Long);
  'clientUuids'?: (string)[];
  'inboundPlan'?: (_scn_agent_v1_InboundPlan | null);
}

export interface ClientSet__Output {
  'version': (string);
  'clientUuids': (string)[];
  'inboundPlan': (_scn_agent_v1_InboundPlan__Output | null);
}
