// Original file: scn/agent/v1/agent.proto

import type { Tier as _scn_agent_v1_Tier, Tier__Output as _scn_agent_v1_Tier__Output } from '../../../scn/agent/v1/Tier';
import type { InboundPlan as _scn_agent_v1_InboundPlan, InboundPlan__Output as _scn_agent_v1_InboundPlan__Output } from '../../../scn/agent/v1/InboundPlan';

export interface EnrollResponse {
  'nodeId'?: (string);
  'nodeSecret'?: (string);
  'reportIntervalMs'?: (number);
  'tier'?: (_scn_agent_v1_Tier);
  'inboundPlan'?: (_scn_agent_v1_InboundPlan | null);
  'hostName'?: (string);
}

export interface EnrollResponse__Output {
  'nodeId': (string);
  'nodeSecret': (string);
  'reportIntervalMs': (number);
  'tier': (_scn_agent_v1_Tier__Output);
  'inboundPlan': (_scn_agent_v1_InboundPlan__Output | null);
  'hostName': (string);
}
