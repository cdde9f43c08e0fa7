import path from 'node:path';
import type { AgentConfig } from '../config/agent-config';
import { isLoopback } from '../grpc/control-plane-client';
import { parseControlPlaneList } from '../grpc/control-plane-endpoints';

/** Let's Encrypt's production directory: the CA the agent asks unless told otherwise. */
export const LETS_ENCRYPT_DIRECTORY = 'https://acme-v02.api.letsencrypt.org/directory';

export type AcmeSettings = NonNullable<AgentConfig['acme']>;

/**
 * The ACME settings of a config that has none (written before ACME certificates, or enrolled without
 * ACME flags): Let's Encrypt on port 80 for a node of a real control plane, and nothing for one
 * enrolled against a control plane on loopback (development, demo nodes and tests, which must
 * never reach out to a public CA).
 */
export function defaultAcmeSettings(controlPlane: string): AcmeSettings {
  const list = parseControlPlaneList(controlPlane) ?? [];
  return {
    enabled: list.length === 0 || list.some((entry) => !isLoopback(entry.host)),
    directoryUrl: LETS_ENCRYPT_DIRECTORY,
    httpPort: 80,
  };
}

export function acmeSettings(config: AgentConfig): AcmeSettings {
  return config.acme ?? defaultAcmeSettings(config.controlPlane);
}

/** Files of the CA-issued certificate and the ACME account, in the agent's `tls/` folder. */
export function acmeFiles(tlsDir: string): {
  certificateFile: string;
  keyFile: string;
  accountKeyFile: string;
} {
  return {
    certificateFile: path.join(tlsDir, 'acme-certificate.pem'),
    keyFile: path.join(tlsDir, 'acme-key.pem'),
    accountKeyFile: path.join(tlsDir, 'acme-account-key.pem'),
  };
}
