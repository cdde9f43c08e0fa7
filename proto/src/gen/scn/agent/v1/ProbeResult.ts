// Original file: scn/agent/v1/agent.proto

import type { Long } from '@grpc/proto-loader';

export interface ProbeResult {
  'serverId'?: (string);
  'planRevision'?: (number | string | Long);
  'tcpOk'?: (boolean);
  'tcpMs'?: (number);
  'handshakeOk'?: (boolean);
  'vlessOk'?: (boolean);
  'totalMs'?: (number);
  'errorClass'?: (string);
}

export interface ProbeResult__Output {
  'serverId': (string);
  'planRevision': (string);
  'tcpOk': (boolean);
  'tcpMs': (number);
  'handshakeOk': (boolean);
  'vlessOk': (boolean);
  'totalMs': (number);
  'errorClass': (string);
}
