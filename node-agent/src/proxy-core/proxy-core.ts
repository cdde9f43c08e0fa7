import type { ProxyCoreKind } from '@scn/proto';
import type { CoreAuditResult } from './core-audit';

/**
 * The agent's view of the proxy core (Xray in production, Debian's v2ray in tests): the daemon
 * and the reporter use only this interface; `xray-core.ts` implements it for both cores.
 */

export type ProxyCoreState = 'running' | 'stopped' | 'restarting' | 'failed' | 'absent';

/** The VLESS inbound the core serves; reported so the control plane can build client links. */
export interface VlessInboundSettings {
  /** Public port clients connect to. */
  port: number;
  /** Address the inbound listens on; default '0.0.0.0' (tests use loopback). */
  listen?: string;
  /** 'none' | 'tls' | 'reality' (REALITY only on Xray: v2ray serves it as plaintext). */
  security: 'none' | 'tls' | 'reality';
  network: 'tcp' | 'ws' | 'grpc';
  sni?: string;
  fp?: string;
  pbk?: string;
  sid?: string;
  flow?: string;
  /** WebSocket path, for network 'ws'. */
  path?: string;
  /** gRPC service name, for network 'grpc'. */
  serviceName?: string;
  /** TLS certificate and key files, for security 'tls'. */
  certificateFile?: string;
  keyFile?: string;
  /** REALITY private key and short ids, for security 'reality' (Xray only). */
  realityPrivateKey?: string;
  /** REALITY camouflage target (`host:port`); default `<sni>:443`. */
  realityDest?: string;
}

export interface ProxyCoreOptions {
  kind: ProxyCoreKind;
  /** Path of the core binary (`xray` or `v2ray`). */
  binary: string;
  /** Folder for the generated config file and logs (0700). */
  workDir: string;
  inbound: VlessInboundSettings;
  /** Loopback port of the core's gRPC API (HandlerService, StatsService). */
  apiPort: number;
  /**
   * Test-only: let clients reach private, loopback and own addresses by IP literal (default
   * false: a client could otherwise reach the node and the operator's LAN). Loopback tests set
   * it, production never does (run.ts). The core's API port stays blocked on every loopback
   * spelling, and names still never resolve to loopback.
   */
  allowPrivateDestinations?: boolean;
  /**
   * Testing: documentation-range CIDRs clients may reach (see CoreConfigInput); set by
   * `run --allow-test-destinations`, which refuses anything else. The node's own addresses inside
   * them stay blocked (ownInterfaceCidrs lists them).
   */
  allowedDestinationCidrs?: readonly string[];
  /** Where the tcp + TLS inbound hands what is not VLESS: `host:port` (see CoreConfigInput). */
  fallbackDest?: string;
  /** Test-only: static names of the core's DNS (see CoreConfigInput). */
  dnsHosts?: Readonly<Record<string, string>>;
  /**
   * The node's own addresses as host CIDRs; default `ownInterfaceCidrs()` (os.networkInterfaces).
   * Read at every config write and by every audit, which restarts the core when they changed.
   */
  ownAddresses?: () => string[];
  /**
   * The node's nameservers for the core's DNS (see CoreConfigInput); default those of
   * /etc/resolv.conf. Read like ownAddresses: a change restarts the core.
   */
  nameservers?: () => Promise<string[]>;
}

export interface ClientTrafficCounters {
  clientUuid: string;
  uplinkBytes: bigint;
  downlinkBytes: bigint;
}

export interface ProxyCoreStatus {
  state: ProxyCoreState;
  kind: ProxyCoreKind;
  version: string;
  restartCount: number;
}

export interface ProxyCore {
  /** Writes the config (with the full allowed set), starts the core and supervises it. */
  start(allowedUuids: readonly string[]): Promise<void>;
  stop(): Promise<void>;
  /** Makes the core's users exactly `allowedUuids` (adds and removes through the API). */
  reconcile(allowedUuids: readonly string[]): Promise<void>;
  /** Per-client traffic counters since the core started. */
  traffic(): Promise<ClientTrafficCounters[]>;
  status(): ProxyCoreStatus;
  /**
   * Serves another inbound (port, transport, security): rewrites the config and restarts the
   * core from it, its users included. Absent on the tests' in-memory cores.
   */
  reconfigure?(inbound: VlessInboundSettings): Promise<void>;
  /**
   * Compares the core's real users with the desired set and undoes what the agent did not do
   * (core-audit.ts). Absent on cores without an API to audit (the tests' in-memory cores).
   */
  audit?(): Promise<CoreAuditResult>;
}
