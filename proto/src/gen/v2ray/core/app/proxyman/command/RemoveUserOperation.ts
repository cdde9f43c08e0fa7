// Original file: v2ray/core/app/proxyman/command/command.proto


export interface RemoveUserOperation {
  'email'?: (string);
}

export interface RemoveUserOperation__Output {
  'email': (string);
}
