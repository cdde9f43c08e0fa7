// Original file: scn/agent/v1/agent.proto

import type { Tier as _scn_agent_v1_Tier, Tier__Output as _scn_agent_v1_Tier__Output } from '../../../scn/agent/v1/Tier';

export interface EnrollResponse {
  'nodeId'?: (string);
  'nodeSecret'?: (string);
  'reportIntervalMs'?: (number);
  'tier'?: (_scn_agent_v1_Tier);
}

export interface EnrollResponse__Output {
  'nodeId': (string);
  'nodeSecret': (string);
  'reportIntervalMs': (number);
  'tier': (_scn_agent_v1_Tier__Output);
}
