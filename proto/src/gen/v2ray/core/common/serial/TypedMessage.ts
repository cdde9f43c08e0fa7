// Original file: v2ray/core/common/serial/typed_message.proto


export interface TypedMessage {
  'type'?: (string);
  'value'?: (Buffer | Uint8Array | string);
}

export interface TypedMessage__Output {
  'type': (string);
  'value': (Buffer);
}
