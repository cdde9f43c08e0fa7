// Original file: scn/agent/v1/agent.proto


export interface ProbeTasksRequest {
  'agentVersion'?: (string);
}

export interface ProbeTasksRequest__Output {
  'agentVersion': (string);
}
