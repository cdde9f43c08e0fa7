import { readFile } from 'node:fs/promises';
import type { AgentConfig, AgentConfigStore, AgentInbound } from '../config/agent-config';
import { coreInboundSettings } from '../proxy-core/inbound-plan';
import type { ProxyCore } from '../proxy-core/proxy-core';
import { ensureSelfSignedCertificate, writeSecretFile } from '../proxy-core/inbound-setup';
import type { AcmeOptions, IssuedCertificate } from './acme-issuer';
import { describeAcmeError, orderInChildProcess } from './acme-order';
import { acmeFiles, acmeSettings } from './acme-settings';
import {
  type CertificateIdentity,
  certificateFacts,
  certificateSource,
  desiredIdentity,
  renewalTime,
  retryDelayMs,
} from './certificate-plan';

/**
 * Keeps a TLS node on a publicly trusted certificate: orders one from the ACME CA
 * when the node has none for its name, renews it once two thirds of its life have passed, and
 * falls back to the agent's pinned self-signed certificate only while no CA certificate can be
 * had, saying why (status, doctor, the report and so the node dashboard). Nothing to do for
 * REALITY, for plaintext, for the operator's own certificate, or with ACME off.
 *
 * A new certificate reaches the core with the least disruption it allows: Xray reloads the
 * certificate files by itself (core-config.ts sets the interval), so a renewal into the same
 * files needs nothing; v2ray 4.34 reads them only at start, so it restarts, and the client set
 * is applied again at once (XrayCore keeps the desired set across restarts).
 */

export type IssueFn = (
  identity: CertificateIdentity,
  options: AcmeOptions,
) => Promise<IssuedCertificate>;

export interface CertificateManagerOptions {
  store: AgentConfigStore;
  core: ProxyCore | null;
  tlsDir: string;
  /** After the served certificate changed (report at once). */
  onChange?: () => void;
  log?: (message: string) => void;
  now?: () => number;
  issue?: IssueFn;
  /** How long one order may take. */
  orderTimeoutMs?: number;
}

export type CertificateOutcome =
  | { outcome: 'not_needed'; reason: string }
  | { outcome: 'current'; renewAt: number }
  | { outcome: 'issued'; identity: CertificateIdentity; notAfter: number }
  | { outcome: 'waiting'; until: number }
  | { outcome: 'failed'; error: string; retryAt: number; fallback: boolean };

/** The longest setTimeout the manager sets (the next check re-plans). */
const MAX_SLEEP_MS = 6 * 3_600_000;
/** A CA certificate closer to its end than this is replaced by the fallback while renewal fails. */
const EXPIRY_MARGIN_MS = 3_600_000;

export class CertificateManager {
  private running: Promise<CertificateOutcome> | null = null;
  private timer: NodeJS.Timeout | undefined;
  private stopped = true;
  private readonly now: () => number;

  constructor(private readonly options: CertificateManagerOptions) {
    this.now = options.now ?? Date.now;
  }

  /**
   * Checks now (keeping a failed order's back-off, so a restart loop cannot hammer the CA) and
   * then whenever the plan says (renewal, retry).
   */
  start(): void {
    this.stopped = false;
    this.checkAndSchedule(false);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running?.catch(() => undefined);
  }

  /** Something changed (the node's name, the inbound): check again at once. */
  wake(): void {
    this.checkAndSchedule(true);
  }

  private checkAndSchedule(retryNow: boolean): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    void this.ensure(retryNow).then(
      (outcome) => this.schedule(outcome),
      (error: Error) => {
        this.options.log?.(`certificate check failed: ${error.message}`);
        this.schedule({ outcome: 'waiting', until: this.now() + 5 * 60_000 });
      },
    );
  }

  private schedule(outcome: CertificateOutcome): void {
    if (this.stopped) return;
    const at =
      outcome.outcome === 'current'
        ? outcome.renewAt
        : outcome.outcome === 'failed'
          ? outcome.retryAt
          : outcome.outcome === 'waiting'
            ? outcome.until
            : outcome.outcome === 'issued'
              ? this.now() // plans the renewal
              : null;
    if (at === null) return;
    const delay = Math.min(Math.max(0, at - this.now()), MAX_SLEEP_MS);
    this.timer = setTimeout(() => this.checkAndSchedule(false), delay);
    this.timer.unref?.();
  }

  /**
   * One check, serialized: orders a certificate when the node has none for its name, or its
   * renewal is due, or (with `retryNow`) after a failure whose retry time has not come yet but
   * something changed; `force` orders even when the current certificate is good (`--renew`).
   */
  ensure(retryNow = false, force = false): Promise<CertificateOutcome> {
    const previous = this.running ?? Promise.resolve(null);
    const next = previous
      .catch(() => null)
      .then(() => this.check(retryNow, force))
      .finally(() => {
        if (this.running === next) this.running = null;
      });
    this.running = next;
    return next;
  }

  private async check(retryNow: boolean, force: boolean): Promise<CertificateOutcome> {
    const config = this.options.store.current;
    const settings = acmeSettings(config);
    const inbound = config.inbound;
    if (inbound.security !== 'tls') return { outcome: 'not_needed', reason: inbound.security };
    if (certificateSource(inbound) === 'operator') {
      return { outcome: 'not_needed', reason: "the operator's certificate" };
    }
    if (!settings.enabled) return { outcome: 'not_needed', reason: 'ACME is off' };
    const identity = desiredIdentity({
      domain: settings.domain,
      hostName: config.hostName,
      publicHost: config.publicHost,
    });
    const files = acmeFiles(this.options.tlsDir);
    const now = this.now();
    const current = await this.currentAcmeCertificate(inbound, files.certificateFile);
    if (current && current.names(identity) && !force) {
      const renewAt = renewalTime(current);
      if (now < renewAt) return { outcome: 'current', renewAt };
    }
    // After a failure, the next order waits for its time unless something changed (wake()).
    const state = config.certificateState;
    if (
      !retryNow &&
      state?.lastError &&
      state.nextAttemptAt &&
      Date.parse(state.nextAttemptAt) > now
    ) {
      return { outcome: 'waiting', until: Date.parse(state.nextAttemptAt) };
    }
    return this.order(config, identity, current, now);
  }

  /** The CA certificate the inbound serves, when it serves one and it can be read. */
  private async currentAcmeCertificate(
    inbound: AgentInbound,
    file: string,
  ): Promise<ReturnType<typeof certificateFacts> | null> {
    if (inbound.certificateSource !== 'acme' || inbound.certificateFile !== file) return null;
    try {
      return certificateFacts(await readFile(file, 'utf8'));
    } catch {
      return null;
    }
  }

  private async order(
    config: AgentConfig,
    identity: CertificateIdentity,
    current: ReturnType<typeof certificateFacts> | null,
    now: number,
  ): Promise<CertificateOutcome> {
    const settings = acmeSettings(config);
    const files = acmeFiles(this.options.tlsDir);
    const label = `${identity.type === 'ip' ? 'address' : 'name'} ${identity.value}`;
    this.options.log?.(`asking ${settings.directoryUrl} for a certificate for ${label}`);
    try {
      const issued = await (this.options.issue ?? orderInChildProcess)(identity, {
        directoryUrl: settings.directoryUrl,
        caFile: settings.caFile,
        accountKeyFile: files.accountKeyFile,
        email: settings.email,
        httpPort: settings.httpPort,
        timeoutMs: this.options.orderTimeoutMs,
      });
      const facts = certificateFacts(issued.certificatePem);
      if (!facts.names(identity)) throw new Error(`the CA's certificate is not for ${label}`);
      await writeSecretFile(files.keyFile, issued.keyPem, 0o600);
      await writeSecretFile(files.certificateFile, issued.certificatePem, 0o644);
      const before = config.inbound;
      await this.options.store.update((latest) => {
        const inbound: AgentInbound = {
          ...latest.inbound,
          certificateFile: files.certificateFile,
          keyFile: files.keyFile,
          certificateSource: 'acme',
          selfSigned: false,
          sni: identity.value,
        };
        delete inbound.certificateProblem;
        return {
          ...latest,
          inbound,
          certificateState: {
            failures: 0,
            lastAttemptAt: new Date(now).toISOString(),
            lastError: null,
            nextAttemptAt: new Date(renewalTime(facts)).toISOString(),
          },
        };
      });
      this.options.log?.(
        `certificate for ${label} issued, valid until ${new Date(facts.notAfter).toISOString()}`,
      );
      await this.applyToCore(before);
      this.options.onChange?.();
      return { outcome: 'issued', identity, notAfter: facts.notAfter };
    } catch (error) {
      return this.failed(config, describeAcmeError(error), current, now);
    }
  }

  private async failed(
    config: AgentConfig,
    error: string,
    current: ReturnType<typeof certificateFacts> | null,
    now: number,
  ): Promise<CertificateOutcome> {
    const failures = (config.certificateState?.failures ?? 0) + 1;
    const retryAt = now + retryDelayMs(failures);
    // A CA certificate that still has time keeps serving while renewal is retried.
    const keep = current !== null && current.notAfter - EXPIRY_MARGIN_MS > now;
    this.options.log?.(
      `certificate order failed (${error}); ${keep ? 'the current certificate stays' : 'serving the self-signed certificate'}, ` +
        `next try at ${new Date(retryAt).toISOString()}`,
    );
    const before = config.inbound;
    const fallback = keep
      ? null
      : await ensureSelfSignedCertificate(this.options.tlsDir, config.publicHost);
    await this.options.store.update((latest) => ({
      ...latest,
      inbound: fallback
        ? {
            ...latest.inbound,
            ...fallback,
            certificateSource: 'self_signed',
            selfSigned: true,
            sni: latest.publicHost,
            certificateProblem: error,
          }
        : latest.inbound,
      certificateState: {
        failures,
        lastAttemptAt: new Date(now).toISOString(),
        lastError: error,
        nextAttemptAt: new Date(retryAt).toISOString(),
      },
    }));
    if (!keep) {
      await this.applyToCore(before);
      this.options.onChange?.();
    }
    return { outcome: 'failed', error, retryAt, fallback: !keep };
  }

  /**
   * Serves the stored inbound's certificate. New files: the core restarts on them. The same
   * files renewed: Xray reloads them by itself; v2ray restarts.
   */
  private async applyToCore(before: AgentInbound): Promise<void> {
    const core = this.options.core;
    if (!core?.reconfigure) return;
    const config = this.options.store.current;
    const sameFiles =
      before.certificateFile === config.inbound.certificateFile &&
      before.keyFile === config.inbound.keyFile;
    if (sameFiles && config.core.kind === 'xray') return;
    await core.reconfigure(coreInboundSettings(config.inbound, config.publicPort));
  }
}
