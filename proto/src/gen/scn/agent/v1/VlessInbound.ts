// Original file: scn/agent/v1/agent.proto


export interface VlessInbound {
  'security'?: (string);
  'sni'?: (string);
  'fp'?: (string);
  'pbk'?: (string);
  'sid'?: (string);
  'flow'?: (string);
  'network'?: (string);
}

export interface VlessInbound__Output {
  'security': (string);
  'sni': (string);
  'fp': (string);
  'pbk': (string);
  'sid': (string);
  'flow': (string);
  'network': (string);
}
