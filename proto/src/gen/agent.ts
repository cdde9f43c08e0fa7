import type * as grpc from '@grpc/grpc-js';
import type { EnumTypeDefinition, MessageTypeDefinition } from '@grpc/proto-loader';

import type { AgentServiceClient as _scn_agent_v1_AgentServiceClient, AgentServiceDefinition as _scn_agent_v1_AgentServiceDefinition } from './scn/agent/v1/AgentService';
import type { ClientSet as _scn_agent_v1_ClientSet, ClientSet__Output as _scn_agent_v1_ClientSet__Output } from './scn/agent/v1/ClientSet';
import type { ClientTraffic as _scn_agent_v1_ClientTraffic, ClientTraffic__Output as _scn_agent_v1_ClientTraffic__Output } from './scn/agent/v1/ClientTraffic';
import type { EnrollProbeRequest as _scn_agent_v1_EnrollProbeRequest, EnrollProbeRequest__Output as _scn_agent_v1_EnrollProbeRequest__Output } from './scn/agent/v1/EnrollProbeRequest';
import type { EnrollProbeResponse as _scn_agent_v1_EnrollProbeResponse, EnrollProbeResponse__Output as _scn_agent_v1_EnrollProbeResponse__Output } from './scn/agent/v1/EnrollProbeResponse';
import type { EnrollRequest as _scn_agent_v1_EnrollRequest, EnrollRequest__Output as _scn_agent_v1_EnrollRequest__Output } from './scn/agent/v1/EnrollRequest';
import type { EnrollResponse as _scn_agent_v1_EnrollResponse, EnrollResponse__Output as _scn_agent_v1_EnrollResponse__Output } from './scn/agent/v1/EnrollResponse';
import type { HardwareSummary as _scn_agent_v1_HardwareSummary, HardwareSummary__Output as _scn_agent_v1_HardwareSummary__Output } from './scn/agent/v1/HardwareSummary';
import type { InboundPlan as _scn_agent_v1_InboundPlan, InboundPlan__Output as _scn_agent_v1_InboundPlan__Output } from './scn/agent/v1/InboundPlan';
import type { ProbeEndpoint as _scn_agent_v1_ProbeEndpoint, ProbeEndpoint__Output as _scn_agent_v1_ProbeEndpoint__Output } from './scn/agent/v1/ProbeEndpoint';
import type { ProbeReport as _scn_agent_v1_ProbeReport, ProbeReport__Output as _scn_agent_v1_ProbeReport__Output } from './scn/agent/v1/ProbeReport';
import type { ProbeReportResponse as _scn_agent_v1_ProbeReportResponse, ProbeReportResponse__Output as _scn_agent_v1_ProbeReportResponse__Output } from './scn/agent/v1/ProbeReportResponse';
import type { ProbeResult as _scn_agent_v1_ProbeResult, ProbeResult__Output as _scn_agent_v1_ProbeResult__Output } from './scn/agent/v1/ProbeResult';
import type { ProbeTasksRequest as _scn_agent_v1_ProbeTasksRequest, ProbeTasksRequest__Output as _scn_agent_v1_ProbeTasksRequest__Output } from './scn/agent/v1/ProbeTasksRequest';
import type { ProbeTasksResponse as _scn_agent_v1_ProbeTasksResponse, ProbeTasksResponse__Output as _scn_agent_v1_ProbeTasksResponse__Output } from './scn/agent/v1/ProbeTasksResponse';
import type { ProxyCoreStatus as _scn_agent_v1_ProxyCoreStatus, ProxyCoreStatus__Output as _scn_agent_v1_ProxyCoreStatus__Output } from './scn/agent/v1/ProxyCoreStatus';
import type { ReportRequest as _scn_agent_v1_ReportRequest, ReportRequest__Output as _scn_agent_v1_ReportRequest__Output } from './scn/agent/v1/ReportRequest';
import type { ReportResponse as _scn_agent_v1_ReportResponse, ReportResponse__Output as _scn_agent_v1_ReportResponse__Output } from './scn/agent/v1/ReportResponse';
import type { VlessInbound as _scn_agent_v1_VlessInbound, VlessInbound__Output as _scn_agent_v1_VlessInbound__Output } from './scn/agent/v1/VlessInbound';
import type { WatchClientsRequest as _scn_agent_v1_WatchClientsRequest, WatchClientsRequest__Output as _scn_agent_v1_WatchClientsRequest__Output } from './scn/agent/v1/WatchClientsRequest';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  scn: {
    agent: {
      v1: {
        AgentService: SubtypeConstructor<typeof grpc.Client, _scn_agent_v1_AgentServiceClient> & { service: _scn_agent_v1_AgentServiceDefinition }
        ClientSet: MessageTypeDefinition<_scn_agent_v1_ClientSet, _scn_agent_v1_ClientSet__Output>
        ClientTraffic: MessageTypeDefinition<_scn_agent_v1_ClientTraffic, _scn_agent_v1_ClientTraffic__Output>
        EnrollProbeRequest: MessageTypeDefinition<_scn_agent_v1_EnrollProbeRequest, _scn_agent_v1_EnrollProbeRequest__Output>
        EnrollProbeResponse: MessageTypeDefinition<_scn_agent_v1_EnrollProbeResponse, _scn_agent_v1_EnrollProbeResponse__Output>
        EnrollRequest: MessageTypeDefinition<_scn_agent_v1_EnrollRequest, _scn_agent_v1_EnrollRequest__Output>
        EnrollResponse: MessageTypeDefinition<_scn_agent_v1_EnrollResponse, _scn_agent_v1_EnrollResponse__Output>
        HardwareSummary: MessageTypeDefinition<_scn_agent_v1_HardwareSummary, _scn_agent_v1_HardwareSummary__Output>
        InboundPlan: MessageTypeDefinition<_scn_agent_v1_InboundPlan, _scn_agent_v1_InboundPlan__Output>
        ProbeEndpoint: MessageTypeDefinition<_scn_agent_v1_ProbeEndpoint, _scn_agent_v1_ProbeEndpoint__Output>
        ProbeReport: MessageTypeDefinition<_scn_agent_v1_ProbeReport, _scn_agent_v1_ProbeReport__Output>
        ProbeReportResponse: MessageTypeDefinition<_scn_agent_v1_ProbeReportResponse, _scn_agent_v1_ProbeReportResponse__Output>
        ProbeResult: MessageTypeDefinition<_scn_agent_v1_ProbeResult, _scn_agent_v1_ProbeResult__Output>
        ProbeTasksRequest: MessageTypeDefinition<_scn_agent_v1_ProbeTasksRequest, _scn_agent_v1_ProbeTasksRequest__Output>
        ProbeTasksResponse: MessageTypeDefinition<_scn_agent_v1_ProbeTasksResponse, _scn_agent_v1_ProbeTasksResponse__Output>
        ProxyCoreState: EnumTypeDefinition
        ProxyCoreStatus: MessageTypeDefinition<_scn_agent_v1_ProxyCoreStatus, _scn_agent_v1_ProxyCoreStatus__Output>
        ReportRequest: MessageTypeDefinition<_scn_agent_v1_ReportRequest, _scn_agent_v1_ReportRequest__Output>
        ReportResponse: MessageTypeDefinition<_scn_agent_v1_ReportResponse, _scn_agent_v1_ReportResponse__Output>
        Tier: EnumTypeDefinition
        VlessInbound: MessageTypeDefinition<_scn_agent_v1_VlessInbound, _scn_agent_v1_VlessInbound__Output>
        WatchClientsRequest: MessageTypeDefinition<_scn_agent_v1_WatchClientsRequest, _scn_agent_v1_WatchClientsRequest__Output>
      }
    }
  }
}

