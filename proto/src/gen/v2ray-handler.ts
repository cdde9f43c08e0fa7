import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { AddUserOperation as _v2ray_core_app_proxyman_command_AddUserOperation, AddUserOperation__Output as _v2ray_core_app_proxyman_command_AddUserOperation__Output } from './v2ray/core/app/proxyman/command/AddUserOperation';
import type { AlterInboundRequest as _v2ray_core_app_proxyman_command_AlterInboundRequest, AlterInboundRequest__Output as _v2ray_core_app_proxyman_command_AlterInboundRequest__Output } from './v2ray/core/app/proxyman/command/AlterInboundRequest';
import type { AlterInboundResponse as _v2ray_core_app_proxyman_command_AlterInboundResponse, AlterInboundResponse__Output as _v2ray_core_app_proxyman_command_AlterInboundResponse__Output } from './v2ray/core/app/proxyman/command/AlterInboundResponse';
import type { HandlerServiceClient as _v2ray_core_app_proxyman_command_HandlerServiceClient, HandlerServiceDefinition as _v2ray_core_app_proxyman_command_HandlerServiceDefinition } from './v2ray/core/app/proxyman/command/HandlerService';
import type { RemoveUserOperation as _v2ray_core_app_proxyman_command_RemoveUserOperation, RemoveUserOperation__Output as _v2ray_core_app_proxyman_command_RemoveUserOperation__Output } from './v2ray/core/app/proxyman/command/RemoveUserOperation';
import type { User as _v2ray_core_common_protocol_User, User__Output as _v2ray_core_common_protocol_User__Output } from './v2ray/core/common/protocol/User';
import type { TypedMessage as _v2ray_core_common_serial_TypedMessage, TypedMessage__Output as _v2ray_core_common_serial_TypedMessage__Output } from './v2ray/core/common/serial/TypedMessage';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  v2ray: {
    core: {
      app: {
        proxyman: {
          command: {
            AddUserOperation: MessageTypeDefinition<_v2ray_core_app_proxyman_command_AddUserOperation, _v2ray_core_app_proxyman_command_AddUserOperation__Output>
            AlterInboundRequest: MessageTypeDefinition<_v2ray_core_app_proxyman_command_AlterInboundRequest, _v2ray_core_app_proxyman_command_AlterInboundRequest__Output>
            AlterInboundResponse: MessageTypeDefinition<_v2ray_core_app_proxyman_command_AlterInboundResponse, _v2ray_core_app_proxyman_command_AlterInboundResponse__Output>
            HandlerService: SubtypeConstructor<typeof grpc.Client, _v2ray_core_app_proxyman_command_HandlerServiceClient> & { service: _v2ray_core_app_proxyman_command_HandlerServiceDefinition }
            RemoveUserOperation: MessageTypeDefinition<_v2ray_core_app_proxyman_command_RemoveUserOperation, _v2ray_core_app_proxyman_command_RemoveUserOperation__Output>
          }
        }
      }
      common: {
        protocol: {
          User: MessageTypeDefinition<_v2ray_core_common_protocol_User, _v2ray_core_common_protocol_User__Output>
        }
        serial: {
          TypedMessage: MessageTypeDefinition<_v2ray_core_common_serial_TypedMessage, _v2ray_core_common_serial_TypedMessage__Output>
        }
      }
    }
  }
}

