// Original file: v2ray/core/app/proxyman/command/command.proto

import type { User as _v2ray_core_common_protocol_User, User__Output as _v2ray_core_common_protocol_User__Output } from '../../../../../v2ray/core/common/protocol/User';

export interface AddUserOperation {
  'user'?: (_v2ray_core_common_protocol_User | null);
}

export interface AddUserOperation__Output {
  'user': (_v2ray_core_common_protocol_User__Output | null);
}
