/**
 * docs/product/input-rules.md#dashboard-input: fetched subscription content may be base64; decoded, it must hold `vless://` lines
 * (docs/product/input-rules.md#market-and-account-input: only those lines are kept). Each way it can fail has its own message.
 */
export const CONTENT_ERRORS = {
  notVless: 'Error: Decoded content is not a valid VLESS string',
  undecodable: 'Failed to decode connection data',
  invalidFormat: 'Error: Invalid subscription content format',
} as const;

export type ContentResult = { ok: true; links: string[] } | { ok: false; error: string };

function vlessLines(body: string): string[] {
  return body
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line.toLowerCase().startsWith('vless://'));
}

function decodeBase64(text: string): string {
  const normal = text.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(normal + '='.repeat((4 - (normal.length % 4)) % 4));
  const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
  return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
}

export function parseSubscriptionContent(text: string): ContentResult {
  const trimmed = text.trim();
  if (trimmed.toLowerCase().startsWith('vless://')) {
    return { ok: true, links: vlessLines(trimmed) };
  }
  if (!trimmed || !/^[A-Za-z0-9+/=_\-\s]+$/.test(trimmed)) {
    return { ok: false, error: CONTENT_ERRORS.invalidFormat };
  }
  let decoded: string;
  try {
    decoded = decodeBase64(trimmed.replace(/\s+/g, ''));
  } catch {
    return { ok: false, error: CONTENT_ERRORS.undecodable };
  }
  const links = vlessLines(decoded);
  return links.length > 0 ? { ok: true, links } : { ok: false, error: CONTENT_ERRORS.notVless };
}
