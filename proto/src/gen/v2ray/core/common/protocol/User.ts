// Original file: v2ray/core/common/protocol/user.proto

import type { TypedMessage as _v2ray_core_common_serial_TypedMessage, TypedMessage__Output as _v2ray_core_common_serial_TypedMessage__Output } from '../../../../v2ray/core/common/serial/TypedMessage';

export interface User {
  'level'?: (number);
  'email'?: (string);
  'account'?: (_v2ray_core_common_serial_TypedMessage | null);
}

export interface User__Output {
  'level': (number);
  'email': (string);
  'account': (_v2ray_core_common_serial_TypedMessage__Output | null);
}
