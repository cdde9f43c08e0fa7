// Everything: the browser-safe contract, plus the gRPC contract (Node only).
export * from './browser';
export * from './grpc';
export * from './inbound-transports';
export * from './special-addresses';
// A minimal VLESS client (node:net/tls): manual-server checks and vantage points.
export * from './vless-client';

// Generated from the .proto files by `npm run gen` (src/gen is committed; never edit it).
export type { ProtoGrpcType as AgentProtoGrpcType } from './gen/agent';
export type {
  AgentServiceClient,
  AgentServiceDefinition,
  AgentServiceHandlers,
} from './gen/scn/agent/v1/AgentService';
export type { ClientSet, ClientSet__Output } from './gen/scn/agent/v1/ClientSet';
export type { ClientTraffic, ClientTraffic__Output } from './gen/scn/agent/v1/ClientTraffic';
export type { EnrollRequest, EnrollRequest__Output } from './gen/scn/agent/v1/EnrollRequest';
export type { EnrollResponse, EnrollResponse__Output } from './gen/scn/agent/v1/EnrollResponse';
export type { HardwareSummary, HardwareSummary__Output } from './gen/scn/agent/v1/HardwareSummary';
export { ProxyCoreState } from './gen/scn/agent/v1/ProxyCoreState';
export type { ProxyCoreState__Output } from './gen/scn/agent/v1/ProxyCoreState';
export type { ProxyCoreStatus, ProxyCoreStatus__Output } from './gen/scn/agent/v1/ProxyCoreStatus';
export type { ReportRequest, ReportRequest__Output } from './gen/scn/agent/v1/ReportRequest';
export type { ReportResponse, ReportResponse__Output } from './gen/scn/agent/v1/ReportResponse';
export { Tier } from './gen/scn/agent/v1/Tier';
export type { Tier__Output } from './gen/scn/agent/v1/Tier';
export type { VlessInbound, VlessInbound__Output } from './gen/scn/agent/v1/VlessInbound';
export type {
  WatchClientsRequest,
  WatchClientsRequest__Output,
} from './gen/scn/agent/v1/WatchClientsRequest';

// The proxy-core API (same shapes for v2ray and Xray; only the package prefix differs).
export type { ProtoGrpcType as CoreHandlerProtoGrpcType } from './gen/v2ray-handler';
export type { ProtoGrpcType as CoreStatsProtoGrpcType } from './gen/v2ray-stats';
export type {
  HandlerServiceClient as CoreHandlerServiceClient,
  HandlerServiceHandlers as CoreHandlerServiceHandlers,
} from './gen/v2ray/core/app/proxyman/command/HandlerService';
export type {
  StatsServiceClient as CoreStatsServiceClient,
  StatsServiceHandlers as CoreStatsServiceHandlers,
} from './gen/v2ray/core/app/stats/command/StatsService';
export type {
  AddUserOperation as CoreAddUserOperation,
  AddUserOperation__Output as CoreAddUserOperation__Output,
} from './gen/v2ray/core/app/proxyman/command/AddUserOperation';
export type {
  RemoveUserOperation as CoreRemoveUserOperation,
  RemoveUserOperation__Output as CoreRemoveUserOperation__Output,
} from './gen/v2ray/core/app/proxyman/command/RemoveUserOperation';
export type {
  AlterInboundRequest as CoreAlterInboundRequest,
  AlterInboundRequest__Output as CoreAlterInboundRequest__Output,
} from './gen/v2ray/core/app/proxyman/command/AlterInboundRequest';
export type {
  QueryStatsRequest as CoreQueryStatsRequest,
  QueryStatsRequest__Output as CoreQueryStatsRequest__Output,
} from './gen/v2ray/core/app/stats/command/QueryStatsRequest';
export type {
  QueryStatsResponse as CoreQueryStatsResponse,
  QueryStatsResponse__Output as CoreQueryStatsResponse__Output,
} from './gen/v2ray/core/app/stats/command/QueryStatsResponse';
export type {
  GetStatsRequest as CoreGetStatsRequest,
  GetStatsRequest__Output as CoreGetStatsRequest__Output,
} from './gen/v2ray/core/app/stats/command/GetStatsRequest';
export type {
  GetStatsResponse as CoreGetStatsResponse,
  GetStatsResponse__Output as CoreGetStatsResponse__Output,
} from './gen/v2ray/core/app/stats/command/GetStatsResponse';
export type {
  Stat as CoreStat,
  Stat__Output as CoreStat__Output,
} from './gen/v2ray/core/app/stats/command/Stat';
export type {
  User as CoreUser,
  User__Output as CoreUser__Output,
} from './gen/v2ray/core/common/protocol/User';
export type {
  TypedMessage as CoreTypedMessage,
  TypedMessage__Output as CoreTypedMessage__Output,
} from './gen/v2ray/core/common/serial/TypedMessage';
export type {
  Account as CoreVlessAccount,
  Account__Output as CoreVlessAccount__Output,
} from './gen/v2ray/core/proxy/vless/Account';
export type {
  EnrollProbeRequest,
  EnrollProbeRequest__Output,
} from './gen/scn/agent/v1/EnrollProbeRequest';
export type {
  EnrollProbeResponse,
  EnrollProbeResponse__Output,
} from './gen/scn/agent/v1/EnrollProbeResponse';
export type { ProbeEndpoint, ProbeEndpoint__Output } from './gen/scn/agent/v1/ProbeEndpoint';
export type { ProbeReport, ProbeReport__Output } from './gen/scn/agent/v1/ProbeReport';
export type {
  ProbeReportResponse,
  ProbeReportResponse__Output,
} from './gen/scn/agent/v1/ProbeReportResponse';
export type { ProbeResult, ProbeResult__Output } from './gen/scn/agent/v1/ProbeResult';
export type {
  ProbeTasksRequest,
  ProbeTasksRequest__Output,
} from './gen/scn/agent/v1/ProbeTasksRequest';
export type {
  ProbeTasksResponse,
  ProbeTasksResponse__Output,
} from './gen/scn/agent/v1/ProbeTasksResponse';
export * from './country-names';
