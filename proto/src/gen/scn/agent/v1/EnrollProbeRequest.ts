// Original file: scn/agent/v1/agent.proto


export interface EnrollProbeRequest {
  'enrollmentToken'?: (string);
  'agentVersion'?: (string);
  'name'?: (string);
}

export interface EnrollProbeRequest__Output {
  'enrollmentToken': (string);
  'agentVersion': (string);
  'name': (string);
}
