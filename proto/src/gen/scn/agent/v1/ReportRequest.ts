// Original file: scn/agent/v1/agent.proto

import type { HardwareSummary as _scn_agent_v1_HardwareSummary, HardwareSummary__Output as _scn_agent_v1_HardwareSummary__Output } from '../../../scn/agent/v1/HardwareSummary';
import type { ProxyCoreStatus as _scn_agent_v1_ProxyCoreStatus, ProxyCoreStatus__Output as _scn_agent_v1_ProxyCoreStatus__Output } from '../../../scn/agent/v1/ProxyCoreStatus';
import type { ClientTraffic as _scn_agent_v1_ClientTraffic, ClientTraffic__Output as _scn_agent_v1_ClientTraffic__Output } from '../../../scn/agent/v1/ClientTraffic';
import type { VlessInbound as _scn_agent_v1_VlessInbound, VlessInbound__Output as _scn_agent_v1_VlessInbound__Output } from '../../../scn/agent/v1/VlessInbound';
import type { Long } from '@grpc/proto-loader';

export interface ReportRequest {
  'agentVersion'?: (string);
  'hardware'?: (_scn_agent_v1_HardwareSummary | null);
  'uptimeSeconds'?: (number | string | Long);
  'proxyCore'?: (_scn_agent_v1_ProxyCoreStatus | null);
  'activeClients'?: (number);
  'clientCountFailed'?: (boolean);
  'clientTraffic'?: (_scn_agent_v1_ClientTraffic)[];
  'pingMs'?: (number);
  'publicHost'?: (string);
  'publicPort'?: (number);
  'inbound'?: (_scn_agent_v1_VlessInbound | null);
  'appliedClientSetVersion'?: (number | string | Long);
  'trafficBatchId'?: (string);
}

export interface ReportRequest__Output {
  'agentVersion': (string);
  'hardware': (_scn_agent_v1_HardwareSummary__Output | null);
  'uptimeSeconds': (string);
  'proxyCore': (_scn_agent_v1_ProxyCoreStatus__Output | null);
  'activeClients': (number);
  'clientCountFailed': (boolean);
  'clientTraffic': (_scn_agent_v1_ClientTraffic__Output)[];
  'pingMs': (number);
  'publicHost': (string);
  'publicPort': (number);
  'inbound': (_scn_agent_v1_VlessInbound__Output | null);
  'appliedClientSetVersion': (string);
  'trafficBatchId': (string);
}
