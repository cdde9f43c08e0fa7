import { mkdir, readFile } from 'node:fs/promises';
import https from 'node:https';
import path from 'node:path';
import type { CertificateIdentity } from './certificate-plan';
import { writeSecretFile } from '../proxy-core/inbound-setup';
import { ChallengeServer } from './challenge-server';

/**
 * Gets a certificate from an ACME CA (RFC 8555) with acme-client: Let's Encrypt in production,
 * pebble (Let's Encrypt's test CA) in tests. One identifier per certificate, a DNS name or an IP
 * address (RFC 8738), validated by HTTP-01 on `httpPort` (the agent answers it itself:
 * challenge-server.ts). An IP address asks for the CA's `shortlived` profile where the CA offers
 * it: Let's Encrypt issues IP-address certificates only under that profile (about 6 days).
 *
 * It runs in a child process of its own (acme-order.ts): acme-client and what it brings (axios,
 * node-forge, an X.509 stack) are about 1.1 MB of source the daemon would otherwise keep in
 * memory for an order made every few weeks.
 *
 * The order is driven step by step rather than through acme-client's `auto()`, which always
 * orders `dns` identifiers and first checks the challenge itself over the public internet.
 */

export interface AcmeOptions {
  directoryUrl: string;
  /** PEM CA bundle the ACME server's own HTTPS certificate chains to (pebble's; tests). */
  caFile?: string;
  /** The account key (PEM, 0600): made on first use, kept so the CA sees one account. */
  accountKeyFile: string;
  email?: string;
  /** Where the HTTP-01 responder listens (80 in production: the CA connects there). */
  httpPort: number;
  /** Address it listens on; default every address. */
  httpListen?: string;
  /** Gives up after this long (the order, the validation and the download together). */
  timeoutMs?: number;
}

export interface IssuedCertificate {
  /** The leaf first, then the chain, PEM. */
  certificatePem: string;
  keyPem: string;
}

type AcmeModule = typeof import('acme-client');

/** acme-client with its own axios trusting `caFile` (only the ACME server's HTTPS). */
async function loadAcme(caFile: string | undefined): Promise<AcmeModule> {
  const acme = await import('acme-client');
  acme.axios.defaults.httpsAgent = caFile
    ? new https.Agent({ ca: await readFile(caFile), keepAlive: false })
    : undefined;
  acme.setLogger(() => undefined);
  return acme;
}

async function accountKey(acme: AcmeModule, file: string): Promise<Buffer> {
  const existing = await readFile(file).catch(() => null);
  if (existing) return existing;
  const key = await acme.crypto.createPrivateEcdsaKey('P-256');
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  await writeSecretFile(file, key, 0o600);
  return key;
}

/**
 * One newAccount request (RFC 8555 §7.3): creates the account, or finds the existing one for
 * this key (HTTP 200), and sets the account URL either way. acme-client's `createAccount()`
 * follows a 200 with an account update carrying only the terms flag, which a strict CA (pebble
 * -strict, as Boulder) refuses as an empty update.
 */
async function registerAccount(
  client: InstanceType<AcmeModule['Client']>,
  email: string | undefined,
): Promise<void> {
  const api = (client as unknown as { api: { createAccount(data: object): Promise<unknown> } }).api;
  await api.createAccount({
    termsOfServiceAgreed: true,
    ...(email ? { contact: [`mailto:${email}`] } : {}),
  });
}

/** The CA's profiles (draft-aaron-acme-profiles), or none when it offers none. */
async function profiles(client: InstanceType<AcmeModule['Client']>): Promise<string[]> {
  const http = (client as unknown as { http: { getMetaField(name: string): Promise<unknown> } })
    .http;
  const value = await http.getMetaField('profiles').catch(() => null);
  return value && typeof value === 'object' ? Object.keys(value) : [];
}

export async function issueCertificate(
  identity: CertificateIdentity,
  options: AcmeOptions,
): Promise<IssuedCertificate> {
  const timeoutMs = options.timeoutMs ?? 120_000;
  let timer: NodeJS.Timeout | undefined;
  const challenges = new ChallengeServer(options.httpPort, options.httpListen);
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`the CA did not issue within ${timeoutMs / 1000} s`)),
      timeoutMs,
    );
  });
  const work = order(identity, options, challenges);
  work.catch(() => undefined); // after a timeout its later failure is nobody's
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
    await challenges.stop();
  }
}

async function order(
  identity: CertificateIdentity,
  options: AcmeOptions,
  challenges: ChallengeServer,
): Promise<IssuedCertificate> {
  const acme = await loadAcme(options.caFile);
  const client = new acme.Client({
    directoryUrl: options.directoryUrl,
    accountKey: await accountKey(acme, options.accountKeyFile),
    backoffAttempts: 12,
    backoffMin: 250,
    backoffMax: 5_000,
  });
  await registerAccount(client, options.email);
  const offered = await profiles(client);
  const request = {
    identifiers: [{ type: identity.type, value: identity.value }],
    ...(identity.type === 'ip' && offered.includes('shortlived') ? { profile: 'shortlived' } : {}),
  };
  const placed = await client.createOrder(request);
  await challenges.start().catch((error: NodeJS.ErrnoException) => {
    throw new Error(
      `cannot answer the CA's HTTP-01 challenge on port ${options.httpPort}: ${error.code ?? error.message}`,
    );
  });
  for (const authorization of await client.getAuthorizations(placed)) {
    if (authorization.status === 'valid') continue;
    const challenge = authorization.challenges.find((item) => item.type === 'http-01');
    if (!challenge) throw new Error('the CA offers no HTTP-01 challenge for this identifier');
    const keyAuthorization = await client.getChallengeKeyAuthorization(challenge);
    challenges.set(challenge.token, keyAuthorization);
    try {
      await client.completeChallenge(challenge);
      await client.waitForValidStatus(challenge);
    } finally {
      challenges.remove(challenge.token);
    }
  }
  const key = await acme.crypto.createPrivateEcdsaKey('P-256');
  // No common name for an address (CAs take IP certificates with the SAN alone); a name that
  // fits the 64-character limit goes in both.
  const [, csr] = await acme.crypto.createCsr(
    identity.type === 'dns' && identity.value.length <= 64
      ? { commonName: identity.value, altNames: [identity.value] }
      : { altNames: [identity.value] },
    key,
  );
  const finalized = await client.finalizeOrder(placed, csr);
  const certificatePem = await client.getCertificate(finalized);
  return { certificatePem, keyPem: key.toString() };
}
