// Original file: scn/agent/v1/agent.proto

import type { Long } from '@grpc/proto-loader';

export interface VlessInbound {
  'security'?: (string);
  'sni'?: (string);
  'fp'?: (string);
  'pbk'?: (string);
  'sid'?: (string);
  'flow'?: (string);
  'network'?: (string);
  'path'?: (string);
  'serviceName'?: (string);
  'certificateSha256'?: (string);
  'publicKeySha256'?: (string);
  'planRevision'?: (number | string | Long);
  'certificatePem'?: (string);
  'certificateSource'?: (string);
  'certificateName'?: (string);
  'certificateNotAfterMs'?: (number | string | Long);
  'certificateProblem'?: (string);
}

export interface VlessInbound__Output {
  'security': (string);
  'sni': (string);
  'fp': (string);
  'pbk': (string);
  'sid': (string);
  'flow': (string);
  'network': (string);
  'path': (string);
  'serviceName': (string);
  'certificateSha256': (string);
  'publicKeySha256': (string);
  'planRevision': (string);
  'certificatePem': (string);
  'certificateSource': (string);
  'certificateName': (string);
  'certificateNotAfterMs': (string);
  'certificateProblem': (string);
}
