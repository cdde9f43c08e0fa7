// Original file: scn/agent/v1/agent.proto


export interface EnrollProbeResponse {
  'probeId'?: (string);
  'probeSecret'?: (string);
  'country'?: (string);
  'asn'?: (number);
}

export interface EnrollProbeResponse__Output {
  'probeId': (string);
  'probeSecret': (string);
  'country': (string);
  'asn': (number);
}
