// Original file: scn/agent/v1/agent.proto

import type { Long } from '@grpc/proto-loader';

export interface HardwareSummary {
  'os'?: (string);
  'osRelease'?: (string);
  'arch'?: (string);
  'cpuCores'?: (number);
  'cpuModel'?: (string);
  'cpuGhz'?: (number | string);
  'ramBytes'?: (number | string | Long);
  'diskBytes'?: (number | string | Long);
}

export interface HardwareSummary__Output {
  'os': (string);
  'osRelease': (string);
  'arch': (string);
  'cpuCores': (number);
  'cpuModel': (string);
  'cpuGhz': (number);
  'ramBytes': (string);
  'diskBytes': (string);
}
