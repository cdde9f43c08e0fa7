import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import { Inject, Injectable } from '@nestjs/common';
import {
  checkVless,
  type ProbeTarget,
  probeTargetOf,
  UPLOAD_SERVER_MESSAGES,
  type VlessCheckResult,
  type VlessFailure,
  type VlessLink,
} from '@scn/proto';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import {
  type AddressClass,
  type AddressPolicy,
  CidrList,
  normalize,
} from '../common/address-policy';
import { bareHost, pinAddress, type Resolver, systemResolver } from './pinned-address';

/** One VLESS check: connect, handshake, the probe target's answer back (all of it). */
export const CHECK_TIMEOUT_MS = 10_000;
/** Addresses of one name tried in turn when a connection cannot be opened. */
const MAX_ADDRESSES = 3;
/** The control plane's own addresses are looked up again after this long. */
const OWN_ADDRESSES_TTL_MS = 60_000;

const KIND_WORDS: Record<AddressClass | 'own', string> = {
  unspecified: 'unspecified',
  loopback: 'loopback',
  private: 'private',
  link_local: 'link-local',
  shared: 'shared (CGNAT)',
  multicast: 'multicast',
  reserved: 'reserved',
  documentation: 'documentation',
  own: "this service's own",
};

export interface CheckRefusal {
  ok: false;
  code: 'manual_address_refused' | 'manual_unresolvable' | 'manual_check_failed';
  message: string;
}

export type CheckOutcome = { ok: true; connectMs: number } | CheckRefusal;
export type PinnedHost = { ok: true; addresses: string[] } | CheckRefusal;

/**
 * Whether a server added without the agent may be used, checked now: its host is resolved and
 * every address refused unless public (address-policy.ts), then one of those checked addresses
 * (never the name again: DNS rebinding) gets a VLESS handshake with the link's UUID that asks
 * it to fetch the probe target (MANUAL_PROBE_URL) and must bring its HTTP answer back.
 */
@Injectable()
export class ManualServerCheck {
  private readonly allowed: CidrList;
  private readonly target: ProbeTarget;
  private own: { addresses: Set<string>; at: number } | null = null;
  /** How link hosts are resolved: the system's; a test may answer as a rebinding DNS would. */
  resolver: Resolver = systemResolver;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.allowed = new CidrList(config.manualServerAllowedCidrs);
    this.target = probeTargetOf(config.manualServerProbeUrl);
  }

  /**
   * Resolves and checks the link's host now, without sending it a packet: the address to
   * connect to, or why not. The answer is what `checkPinned` must connect to.
   */
  async pin(host: string): Promise<PinnedHost> {
    const pinned = await pinAddress(host, await this.policy(), this.resolver);
    return pinned.ok
      ? { ok: true, addresses: pinned.addresses }
      : this.refusalOutcome(host, pinned);
  }

  /** Pins the host afresh, then runs the VLESS check against that address. */
  async check(link: VlessLink): Promise<CheckOutcome> {
    const pinned = await this.pin(link.host);
    return pinned.ok ? this.checkPinned(link, pinned.addresses) : pinned;
  }

  /**
   * The VLESS check against the addresses `pin` just resolved and checked, in order: the next
   * one is tried only when a connection could not be opened (an IPv6 address without an IPv6
   * route, one dead address of several), at most MAX_ADDRESSES of them.
   */
  async checkPinned(link: VlessLink, addresses: readonly string[]): Promise<CheckOutcome> {
    const name = bareHost(link.host);
    const security = link.params.security === 'tls' ? 'tls' : 'none';
    let result: VlessCheckResult | null = null;
    for (const address of addresses.slice(0, MAX_ADDRESSES)) {
      result = await checkVless({
        address,
        port: link.port,
        uuid: link.uuid,
        security,
        // The certificate is checked against the name clients use: the link's sni, else its host.
        serverName: link.params.sni || (isIP(name) ? null : name),
        target: this.target,
        timeoutMs: CHECK_TIMEOUT_MS,
      });
      if (result.ok || result.reason !== 'connect_failed') break;
    }
    if (!result) throw new Error('no address to check');
    if (result.ok) return result;
    return {
      ok: false,
      code: 'manual_check_failed',
      message: UPLOAD_SERVER_MESSAGES.checkFailed(this.describe(result.reason, link)),
    };
  }

  private refusalOutcome(
    host: string,
    pinned:
      | { ok: false; reason: 'unresolvable' }
      | { ok: false; reason: 'refused'; address: string; kind: AddressClass | 'own' },
  ): CheckRefusal {
    const name = bareHost(host);
    if (pinned.reason === 'unresolvable') {
      return {
        ok: false,
        code: 'manual_unresolvable',
        message: UPLOAD_SERVER_MESSAGES.unresolvable(name),
      };
    }
    return {
      ok: false,
      code: 'manual_address_refused',
      message: UPLOAD_SERVER_MESSAGES.addressRefused(
        normalize(name),
        pinned.address,
        KIND_WORDS[pinned.kind],
      ),
    };
  }

  private describe(reason: VlessFailure, link: VlessLink): string {
    switch (reason) {
      case 'connect_failed':
        return `could not connect to ${link.host}:${link.port}`;
      case 'tls_failed':
        return 'the TLS handshake failed (the certificate must be valid for the sni or host)';
      case 'closed':
        return 'it closed the connection without a VLESS answer (a wrong UUID, or it cannot reach the internet)';
      case 'not_vless':
        return 'it did not answer as a VLESS server';
      case 'no_answer':
        return 'it accepted the UUID but no answer came back through it';
      case 'timeout':
        return `no answer within ${CHECK_TIMEOUT_MS / 1000} seconds`;
    }
  }

  /**
   * The control plane's own addresses: every interface's, and those its public name and the
   * probe target's name resolve to, so no operator can make the probes call the control plane.
   */
  private async policy(): Promise<AddressPolicy> {
    const now = Date.now();
    if (!this.own || now - this.own.at > OWN_ADDRESSES_TTL_MS) {
      const addresses = new Set<string>();
      for (const list of Object.values(networkInterfaces())) {
        for (const entry of list ?? []) addresses.add(normalize(entry.address));
      }
      for (const url of [this.config.publicUrl, this.config.manualServerProbeUrl]) {
        const host = bareHost(new URL(url).hostname);
        try {
          for (const { address } of await lookup(host, { all: true, verbatim: true })) {
            addresses.add(normalize(address));
          }
        } catch {
          // A public name that does not resolve here has no address to protect.
        }
      }
      this.own = { addresses, at: now };
    }
    return { allowed: this.allowed, own: this.own.addresses };
  }
}
