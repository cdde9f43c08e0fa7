// Original file: v2ray/core/app/proxyman/command/command.proto

import type { TypedMessage as _v2ray_core_common_serial_TypedMessage, TypedMessage__Output as _v2ray_core_common_serial_TypedMessage__Output } from '../../../../../v2ray/core/common/serial/TypedMessage';

export interface AlterInboundRequest {
  'tag'?: (string);
  'operation'?: (_v2ray_core_common_serial_TypedMessage | null);
}

export interface AlterInboundRequest__Output {
  'tag': (string);
  'operation': (_v2ray_core_common_serial_TypedMessage__Output | null);
}
