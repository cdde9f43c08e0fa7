// Original file: v2ray/core/proxy/vless/account.proto


export interface Account {
  'id'?: (string);
  'flow'?: (string);
  'encryption'?: (string);
}

export interface Account__Output {
  'id': (string);
  'flow': (string);
  'encryption': (string);
}
