import { randomBytes } from 'node:crypto';

/**
 * A node's DNS label under the platform's node domain: `n` and 16 hex digits of a random value.
 * Random, not derived from the node's id or secret, so the public name tells nothing about them;
 * the leading letter keeps it a valid host name label whatever the digits are.
 */
export const HOST_NAME_PATTERN = /^n[0-9a-f]{16}$/;

export function newHostName(): string {
  return `n${randomBytes(8).toString('hex')}`;
}

/** The node's full name, or '' when the platform has no node domain (or the node no label). */
export function nodeFqdn(hostName: string | null, domain: string | null | undefined): string {
  return hostName && domain ? `${hostName}.${domain}` : '';
}
