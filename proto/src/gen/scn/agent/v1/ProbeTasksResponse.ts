// Original file: scn/agent/v1/agent.proto

import type { ProbeEndpoint as _scn_agent_v1_ProbeEndpoint, ProbeEndpoint__Output as _scn_agent_v1_ProbeEndpoint__Output } from '../../../scn/agent/v1/ProbeEndpoint';

export interface ProbeTasksResponse {
  'endpoints'?: (_scn_agent_v1_ProbeEndpoint)[];
  'intervalMs'?: (number);
  'timeoutMs'?: (number);
  'targetUrl'?: (string);
  'country'?: (string);
  'asn'?: (number);
}

export interface ProbeTasksResponse__Output {
  'endpoints': (_scn_agent_v1_ProbeEndpoint__Output)[];
  'intervalMs': (number);
  'timeoutMs': (number);
  'targetUrl': (string);
  'country': (string);
  'asn': (number);
}
