// Original file: v2ray/core/app/proxyman/command/command.proto


export interface AlterInboundResponse {
}

export interface AlterInboundResponse__Output {
}
