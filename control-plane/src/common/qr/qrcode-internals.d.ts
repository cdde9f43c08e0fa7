// The tables of `qrcode` 1.5 that `QRCode.create` itself reads (capacities, block counts, the
// generator polynomials), typed for qr-symbol.ts. The symbol tests compare against the library,
// so a library change that moved them would fail there.

declare module 'qrcode/lib/core/error-correction-level' {
  export interface ErrorCorrectionLevel {
    bit: number;
  }
  export const L: ErrorCorrectionLevel;
  export const M: ErrorCorrectionLevel;
  export const Q: ErrorCorrectionLevel;
  export const H: ErrorCorrectionLevel;
}

declare module 'qrcode/lib/core/error-correction-code' {
  import type { ErrorCorrectionLevel } from 'qrcode/lib/core/error-correction-level';
  export function getBlocksCount(version: number, level: ErrorCorrectionLevel): number;
  export function getTotalCodewordsCount(version: number, level: ErrorCorrectionLevel): number;
}

declare module 'qrcode/lib/core/mode' {
  export interface Mode {
    bit: number;
  }
  export const BYTE: Mode;
  export function getCharCountIndicator(mode: Mode, version: number): number;
}

declare module 'qrcode/lib/core/version' {
  import type { ErrorCorrectionLevel } from 'qrcode/lib/core/error-correction-level';
  import type { Mode } from 'qrcode/lib/core/mode';
  export function getCapacity(version: number, level: ErrorCorrectionLevel, mode: Mode): number;
}

declare module 'qrcode/lib/core/utils' {
  export function getSymbolTotalCodewords(version: number): number;
}

declare module 'qrcode/lib/core/polynomial' {
  export function generateECPolynomial(degree: number): Uint8Array;
}
