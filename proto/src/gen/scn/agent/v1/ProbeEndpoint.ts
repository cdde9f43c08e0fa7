// Original file: scn/agent/v1/agent.proto

import type { Long } from '@grpc/proto-loader';

export interface ProbeEndpoint {
  'serverId'?: (string);
  'host'?: (string);
  'port'?: (number);
  'security'?: (string);
  'network'?: (string);
  'sni'?: (string);
  'path'?: (string);
  'certificateSha256'?: (string);
  'probeUuid'?: (string);
  'planRevision'?: (number | string | Long);
}

export interface ProbeEndpoint__Output {
  'serverId': (string);
  'host': (string);
  'port': (number);
  'security': (string);
  'network': (string);
  'sni': (string);
  'path': (string);
  'certificateSha256': (string);
  'probeUuid': (string);
  'planRevision': (string);
}
