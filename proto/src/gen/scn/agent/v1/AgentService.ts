// Original file: scn/agent/v1/agent.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { ClientSet as _scn_agent_v1_ClientSet, ClientSet__Output as _scn_agent_v1_ClientSet__Output } from '../../../scn/agent/v1/ClientSet';
import type { EnrollProbeRequest as _scn_agent_v1_EnrollProbeRequest, EnrollProbeRequest__Output as _scn_agent_v1_EnrollProbeRequest__Output } from '../../../scn/agent/v1/EnrollProbeRequest';
import type { EnrollProbeResponse as _scn_agent_v1_EnrollProbeResponse, EnrollProbeResponse__Output as _scn_agent_v1_EnrollProbeResponse__Output } from '../../../scn/agent/v1/EnrollProbeResponse';
import type { EnrollRequest as _scn_agent_v1_EnrollRequest, EnrollRequest__Output as _scn_agent_v1_EnrollRequest__Output } from '../../../scn/agent/v1/EnrollRequest';
import type { EnrollResponse as _scn_agent_v1_EnrollResponse, EnrollResponse__Output as _scn_agent_v1_EnrollResponse__Output } from '../../../scn/agent/v1/EnrollResponse';
import type { ProbeReport as _scn_agent_v1_ProbeReport, ProbeReport__Output as _scn_agent_v1_ProbeReport__Output } from '../../../scn/agent/v1/ProbeReport';
import type { ProbeReportResponse as _scn_agent_v1_ProbeReportResponse, ProbeReportResponse__Output as _scn_agent_v1_ProbeReportResponse__Output } from '../../../scn/agent/v1/ProbeReportResponse';
import type { ProbeTasksRequest as _scn_agent_v1_ProbeTasksRequest, ProbeTasksRequest__Output as _scn_agent_v1_ProbeTasksRequest__Output } from '../../../scn/agent/v1/ProbeTasksRequest';
import type { ProbeTasksResponse as _scn_agent_v1_ProbeTasksResponse, ProbeTasksResponse__Output as _scn_agent_v1_ProbeTasksResponse__Output } from '../../../scn/agent/v1/ProbeTasksResponse';
import type { ReportRequest as _scn_agent_v1_ReportRequest, ReportRequest__Output as _scn_agent_v1_ReportRequest__Output } from '../../../scn/agent/v1/ReportRequest';
import type { ReportResponse as _scn_agent_v1_ReportResponse, ReportResponse__Output as _scn_agent_v1_ReportResponse__Output } from '../../../scn/agent/v1/ReportResponse';
import type { WatchClientsRequest as _scn_agent_v1_WatchClientsRequest, WatchClientsRequest__Output as _scn_agent_v1_WatchClientsRequest__Output } from '../../../scn/agent/v1/WatchClientsRequest';

export interface AgentServiceClient extends grpc.Client {
  Enroll(argument: _scn_agent_v1_EnrollRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_scn_agent_v1_EnrollResponse__Output>): grpc.ClientUnaryCall;
  Enroll(argument: _scn_agent_v1_EnrollRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_scn_agent_v1_EnrollResponse__Output>): grpc.ClientUnaryCall;
  Enroll(argument: _scn_agent_v1_EnrollRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_scn_agent_v1_EnrollResponse__Output>): grpc.ClientUnaryCall;
  Enroll(argument: _scn_agent_v1_EnrollRequest, callback: grpc.requestCallback<_scn_agent_v1_EnrollResponse__Output>): grpc.ClientUnaryCall;
  enroll(argument: _scn_agent_v1_EnrollRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_scn_agent_v1_EnrollResponse__Output>): grpc.ClientUnaryCall;
  enroll(argument: _scn_agent_v1_EnrollRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_scn_agent_v1_EnrollResponse__Output>): grpc.ClientUnaryCall;
  enroll(argument: _scn_agent_v1_EnrollRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_scn_agent_v1_EnrollResponse__Output>): grpc.ClientUnaryCall;
  enroll(argument: _scn_agent_v1_EnrollRequest, callback: grpc.requestCallback<_scn_agent_v1_EnrollResponse__Output>): grpc.ClientUnaryCall;
  
  EnrollProbe(argument: _scn_agent_v1_EnrollProbeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_scn_agent_v1_EnrollProbeResponse__Output>): grpc.ClientUnaryCall;
  EnrollProbe(argument: _scn_agent_v1_EnrollProbeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_scn_agent_v1_EnrollProbeResponse__Output>): grpc.ClientUnaryCall;
  EnrollProbe(argument: _scn_agent_v1_EnrollProbeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_scn_agent_v1_EnrollProbeResponse__Output>): grpc.ClientUnaryCall;
  EnrollProbe(argument: _scn_agent_v1_EnrollProbeRequest, callback: grpc.requestCallback<_scn_agent_v1_EnrollProbeResponse__Output>): grpc.ClientUnaryCall;
  enrollProbe(argument: _scn_agent_v1_EnrollProbeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_scn_agent_v1_EnrollProbeResponse__Output>): grpc.ClientUnaryCall;
  enrollProbe(argument: _scn_agent_v1_EnrollProbeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_scn_agent_v1_EnrollProbeResponse__Output>): grpc.ClientUnaryCall;
  enrollProbe(argument: _scn_agent_v1_EnrollProbeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_scn_agent_v1_EnrollProbeResponse__Output>): grpc.ClientUnaryCall;
  enrollProbe(argument: _scn_agent_v1_EnrollProbeRequest, callback: grpc.requestCallback<_scn_agent_v1_EnrollProbeResponse__Output>): grpc.ClientUnaryCall;
  
  ProbeTasks(argument: _scn_agent_v1_ProbeTasksRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_scn_agent_v1_ProbeTasksResponse__Output>): grpc.ClientUnaryCall;
  ProbeTasks(argument: _scn_agent_v1_ProbeTasksRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_scn_agent_v1_ProbeTasksResponse__Output>): grpc.ClientUnaryCall;
  ProbeTasks(argument: _scn_agent_v1_ProbeTasksRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_scn_agent_v1_ProbeTasksResponse__Output>): grpc.ClientUnaryCall;
  ProbeTasks(argument: _scn_agent_v1_ProbeTasksRequest, callback: grpc.requestCallback<_scn_agent_v1_ProbeTasksResponse__Output>): grpc.ClientUnaryCall;
  probeTasks(argument: _scn_agent_v1_ProbeTasksRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_scn_agent_v1_ProbeTasksResponse__Output>): grpc.ClientUnaryCall;
  probeTasks(argument: _scn_agent_v1_ProbeTasksRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_scn_agent_v1_ProbeTasksResponse__Output>): grpc.ClientUnaryCall;
  probeTasks(argument: _scn_agent_v1_ProbeTasksRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_scn_agent_v1_ProbeTasksResponse__Output>): grpc.ClientUnaryCall;
  probeTasks(argument: _scn_agent_v1_ProbeTasksRequest, callback: grpc.requestCallback<_scn_agent_v1_ProbeTasksResponse__Output>): grpc.ClientUnaryCall;
  
  Report(argument: _scn_agent_v1_ReportRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_scn_agent_v1_ReportResponse__Output>): grpc.ClientUnaryCall;
  Report(argument: _scn_agent_v1_ReportRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_scn_agent_v1_ReportResponse__Output>): grpc.ClientUnaryCall;
  Report(argument: _scn_agent_v1_ReportRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_scn_agent_v1_ReportResponse__Output>): grpc.ClientUnaryCall;
  Report(argument: _scn_agent_v1_ReportRequest, callback: grpc.requestCallback<_scn_agent_v1_ReportResponse__Output>): grpc.ClientUnaryCall;
  report(argument: _scn_agent_v1_ReportRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_scn_agent_v1_ReportResponse__Output>): grpc.ClientUnaryCall;
  report(argument: _scn_agent_v1_ReportRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_scn_agent_v1_ReportResponse__Output>): grpc.ClientUnaryCall;
  report(argument: _scn_agent_v1_ReportRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_scn_agent_v1_ReportResponse__Output>): grpc.ClientUnaryCall;
  report(argument: _scn_agent_v1_ReportRequest, callback: grpc.requestCallback<_scn_agent_v1_ReportResponse__Output>): grpc.ClientUnaryCall;
  
  ReportProbe(argument: _scn_agent_v1_ProbeReport, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_scn_agent_v1_ProbeReportResponse__Output>): grpc.ClientUnaryCall;
  ReportProbe(argument: _scn_agent_v1_ProbeReport, metadata: grpc.Metadata, callback: grpc.requestCallback<_scn_agent_v1_ProbeReportResponse__Output>): grpc.ClientUnaryCall;
  ReportProbe(argument: _scn_agent_v1_ProbeReport, options: grpc.CallOptions, callback: grpc.requestCallback<_scn_agent_v1_ProbeReportResponse__Output>): grpc.ClientUnaryCall;
  ReportProbe(argument: _scn_agent_v1_ProbeReport, callback: grpc.requestCallback<_scn_agent_v1_ProbeReportResponse__Output>): grpc.ClientUnaryCall;
  reportProbe(argument: _scn_agent_v1_ProbeReport, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_scn_agent_v1_ProbeReportResponse__Output>): grpc.ClientUnaryCall;
  reportProbe(argument: _scn_agent_v1_ProbeReport, metadata: grpc.Metadata, callback: grpc.requestCallback<_scn_agent_v1_ProbeReportResponse__Output>): grpc.ClientUnaryCall;
  reportProbe(argument: _scn_agent_v1_ProbeReport, options: grpc.CallOptions, callback: grpc.requestCallback<_scn_agent_v1_ProbeReportResponse__Output>): grpc.ClientUnaryCall;
  reportProbe(argument: _scn_agent_v1_ProbeReport, callback: grpc.requestCallback<_scn_agent_v1_ProbeReportResponse__Output>): grpc.ClientUnaryCall;
  
  ReportStream(metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientDuplexStream<_scn_agent_v1_ReportRequest, _scn_agent_v1_ReportResponse__Output>;
  ReportStream(options?: grpc.CallOptions): grpc.ClientDuplexStream<_scn_agent_v1_ReportRequest, _scn_agent_v1_ReportResponse__Output>;
  reportStream(metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientDuplexStream<_scn_agent_v1_ReportRequest, _scn_agent_v1_ReportResponse__Output>;
  reportStream(options?: grpc.CallOptions): grpc.ClientDuplexStream<_scn_agent_v1_ReportRequest, _scn_agent_v1_ReportResponse__Output>;
  
  WatchClients(argument: _scn_agent_v1_WatchClientsRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_scn_agent_v1_ClientSet__Output>;
  WatchClients(argument: _scn_agent_v1_WatchClientsRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_scn_agent_v1_ClientSet__Output>;
  watchClients(argument: _scn_agent_v1_WatchClientsRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_scn_agent_v1_ClientSet__Output>;
  watchClients(argument: _scn_agent_v1_WatchClientsRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_scn_agent_v1_ClientSet__Output>;
  
}

export interface AgentServiceHandlers extends grpc.UntypedServiceImplementation {
  Enroll: grpc.handleUnaryCall<_scn_agent_v1_EnrollRequest__Output, _scn_agent_v1_EnrollResponse>;
  
  EnrollProbe: grpc.handleUnaryCall<_scn_agent_v1_EnrollProbeRequest__Output, _scn_agent_v1_EnrollProbeResponse>;
  
  ProbeTasks: grpc.handleUnaryCall<_scn_agent_v1_ProbeTasksRequest__Output, _scn_agent_v1_ProbeTasksResponse>;
  
  Report: grpc.handleUnaryCall<_scn_agent_v1_ReportRequest__Output, _scn_agent_v1_ReportResponse>;
  
  ReportProbe: grpc.handleUnaryCall<_scn_agent_v1_ProbeReport__Output, _scn_agent_v1_ProbeReportResponse>;
  
  ReportStream: grpc.handleBidiStreamingCall<_scn_agent_v1_ReportRequest__Output, _scn_agent_v1_ReportResponse>;
  
  WatchClients: grpc.handleServerStreamingCall<_scn_agent_v1_WatchClientsRequest__Output, _scn_agent_v1_ClientSet>;
  
}

export interface AgentServiceDefinition extends grpc.ServiceDefinition {
  Enroll: MethodDefinition<_scn_agent_v1_EnrollRequest, _scn_agent_v1_EnrollResponse, _scn_agent_v1_EnrollRequest__Output, _scn_agent_v1_EnrollResponse__Output>
  EnrollProbe: MethodDefinition<_scn_agent_v1_EnrollProbeRequest, _scn_agent_v1_EnrollProbeResponse, _scn_agent_v1_EnrollProbeRequest__Output, _scn_agent_v1_EnrollProbeResponse__Output>
  ProbeTasks: MethodDefinition<_scn_agent_v1_ProbeTasksRequest, _scn_agent_v1_ProbeTasksResponse, _scn_agent_v1_ProbeTasksRequest__Output, _scn_agent_v1_ProbeTasksResponse__Output>
  Report: MethodDefinition<_scn_agent_v1_ReportRequest, _scn_agent_v1_ReportResponse, _scn_agent_v1_ReportRequest__Output, _scn_agent_v1_ReportResponse__Output>
  ReportProbe: MethodDefinition<_scn_agent_v1_ProbeReport, _scn_agent_v1_ProbeReportResponse, _scn_agent_v1_ProbeReport__Output, _scn_agent_v1_ProbeReportResponse__Output>
  ReportStream: MethodDefinition<_scn_agent_v1_ReportRequest, _scn_agent_v1_ReportResponse, _scn_agent_v1_ReportRequest__Output, _scn_agent_v1_ReportResponse__Output>
  WatchClients: MethodDefinition<_scn_agent_v1_WatchClientsRequest, _scn_agent_v1_ClientSet, _scn_agent_v1_WatchClientsRequest__Output, _scn_agent_v1_ClientSet__Output>
}
