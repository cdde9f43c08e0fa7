// Original file: scn/agent/v1/agent.proto


export interface ProbeReportResponse {
  'accepted'?: (number);
  'nextIntervalMs'?: (number);
}

export interface ProbeReportResponse__Output {
  'accepted': (number);
  'nextIntervalMs': (number);
}
