// Original file: scn/agent/v1/agent.proto

import type { Tier as _scn_agent_v1_Tier, Tier__Output as _scn_agent_v1_Tier__Output } from '../../../scn/agent/v1/Tier';
import type { HardwareSummary as _scn_agent_v1_HardwareSummary, HardwareSummary__Output as _scn_agent_v1_HardwareSummary__Output } from '../../../scn/agent/v1/HardwareSummary';

export interface EnrollRequest {
  'enrollmentToken'?: (string);
  'tier'?: (_scn_agent_v1_Tier);
  'agentVersion'?: (string);
  'hardware'?: (_scn_agent_v1_HardwareSummary | null);
  'country'?: (string);
  'location'?: (string);
  'requestedPort'?: (number);
  'core'?: (string);
  'publicHost'?: (string);
}

export interface EnrollRequest__Output {
  'enrollmentToken': (string);
  'tier': (_scn_agent_v1_Tier__Output);
  'agentVersion': (string);
  'hardware': (_scn_agent_v1_HardwareSummary__Output | null);
  'country': (string);
  'location': (string);
  'requestedPort': (number);
  'core': (string);
  'publicHost': (string);
}
