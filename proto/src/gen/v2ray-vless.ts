import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { Account as _v2ray_core_proxy_vless_Account, Account__Output as _v2ray_core_proxy_vless_Account__Output } from './v2ray/core/proxy/vless/Account';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  v2ray: {
    core: {
      proxy: {
        vless: {
          Account: MessageTypeDefinition<_v2ray_core_proxy_vless_Account, _v2ray_core_proxy_vless_Account__Output>
        }
      }
    }
  }
}

