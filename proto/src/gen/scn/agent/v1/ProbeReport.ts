// Original file: scn/agent/v1/agent.proto

import type { ProbeResult as _scn_agent_v1_ProbeResult, ProbeResult__Output as _scn_agent_v1_ProbeResult__Output } from '../../../scn/agent/v1/ProbeResult';

export interface ProbeReport {
  'agentVersion'?: (string);
  'results'?: (_scn_agent_v1_ProbeResult)[];
}

export interface ProbeReport__Output {
  'agentVersion': (string);
  'results': (_scn_agent_v1_ProbeResult__Output)[];
}
