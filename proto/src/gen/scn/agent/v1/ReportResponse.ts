// Original file: scn/agent/v1/agent.proto

import type { Long } from '@grpc/proto-loader';

export interface ReportResponse {
  'accepted'?: (boolean);
  'serverTimeMs'?: (number | string | Long);
  'reliability'?: (number);
  'available'?: (boolean);
  'nextReportIntervalMs'?: (number);
  'handlingMs'?: (number);
  'hostName'?: (string);
}

export interface ReportResponse__Output {
  'accepted': (boolean);
  'serverTimeMs': (string);
  'reliability': (number);
  'available': (boolean);
  'nextReportIntervalMs': (number);
  'handlingMs': (number);
  'hostName': (string);
}
