// Original file: scn/agent/v1/agent.proto

import type { ProxyCoreState as _scn_agent_v1_ProxyCoreState, ProxyCoreState__Output as _scn_agent_v1_ProxyCoreState__Output } from '../../../scn/agent/v1/ProxyCoreState';

export interface ProxyCoreStatus {
  'state'?: (_scn_agent_v1_ProxyCoreState);
  'name'?: (string);
  'version'?: (string);
  'restartCount'?: (number);
}

export interface ProxyCoreStatus__Output {
  'state': (_scn_agent_v1_ProxyCoreState__Output);
  'name': (string);
  'version': (string);
  'restartCount': (number);
}
