import { createHash, X509Certificate } from 'node:crypto';
import {
  canonicalHost,
  isCountryCode,
  SERVER_SETTINGS_MESSAGES,
  serverLocationSchema,
  UUID_PATTERN,
} from '@scn/proto';
import { z } from 'zod';

/**
 * What the control plane accepts from an agent, checked on top of protobuf decoding (which only
 * guarantees types). A message that fails gets INVALID_ARGUMENT and changes nothing.
 */

// abort: the refinements after it must not see a string BigInt() cannot read (it throws).
const uint64 = z
  .string()
  .regex(/^\d{1,20}$/, { message: 'must be an unsigned integer', abort: true });
/** A uint64 the database stores as `bigint` (signed 64-bit). */
const storedUint64 = uint64.refine(
  (value) => BigInt(value) <= 9_223_372_036_854_775_807n,
  'must be at most 9223372036854775807',
);
/** Free text: bounded, and no control characters (PostgreSQL refuses NUL in text and jsonb). */
const text = (max: number) =>
  z
    .string()
    .max(max, `must be at most ${max} characters`)
    // eslint-disable-next-line no-control-regex
    .regex(/^[^\u0000-\u001f\u007f]*$/, 'must not contain control characters');
// A DNS name or an IPv4/IPv6 address: what a client will dial. Stored in one canonical form
// (IPv6 without brackets, compressed; names lower-case), so links can bracket it.
const host = z
  .string()
  .min(1, 'is required')
  .max(253)
  .transform((value, ctx) => {
    const canonical = canonicalHost(value);
    if (canonical === null) {
      ctx.addIssue({ code: 'custom', message: 'must be a host name or IP address' });
      return z.NEVER;
    }
    return canonical;
  });

export const TIER_BY_PROTO = {
  TIER_1: 'tier1',
  TIER_2: 'tier2',
  TIER_3: 'tier3',
  TIER_4: 'tier4',
} as const;

export const hardwareSchema = z.object({
  os: text(64),
  osRelease: text(64),
  arch: text(32),
  cpuCores: z.number().int().min(1, 'cpuCores must be at least 1').max(4096),
  cpuModel: text(128),
  cpuGhz: z.number().min(0).max(20),
  ramBytes: uint64,
  diskBytes: uint64,
});
export type Hardware = z.infer<typeof hardwareSchema>;

export const enrollRequestSchema = z.object({
  enrollmentToken: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'enrollmentToken is malformed'),
  tier: z.enum(['TIER_1', 'TIER_2', 'TIER_3', 'TIER_4'], {
    error: 'tier must be TIER_1 to TIER_4',
  }),
  agentVersion: text(32).min(1, 'agentVersion is required'),
  hardware: hardwareSchema.nullable().refine((h) => h !== null, 'hardware is required'),
  // Optional in practice: proto3 gives '' when the agent (or an older one) sent none.
  country: z
    .string()
    .trim()
    .toUpperCase()
    .refine((code) => code === '' || isCountryCode(code), SERVER_SETTINGS_MESSAGES.countryInvalid)
    .transform((code) => code || null),
  location: serverLocationSchema.transform((text) => text || null),
  // 0: the control plane gives the machine a port of its own (nodes/inbound-plan.ts).
  requestedPort: z
    .number()
    .int()
    .min(0, 'requestedPort must be 0-65535')
    .max(65535, 'requestedPort must be 0-65535'),
  // '': an agent from before secure transports (it serves what v2ray serves).
  core: z
    .enum(['', 'xray', 'v2ray'], { error: 'core must be xray or v2ray' })
    .transform((core) => core || null),
  // '': unknown (or an agent from before ACME certificates); else where clients will connect, which the
  // node's name answers with until its first report.
  publicHost: z
    .string()
    .max(253, 'must be at most 253 characters')
    .default('')
    .transform((value, ctx) => {
      if (value === '') return null;
      const canonical = canonicalHost(value);
      if (canonical === null) {
        ctx.addIssue({ code: 'custom', message: 'must be a host name or IP address' });
        return z.NEVER;
      }
      return canonical;
    }),
});

const uuid = z.string().regex(UUID_PATTERN, 'must be a UUID');

/** The largest certificate PEM stored (an agent's self-signed P-256 or RSA-4096 leaf fits). */
export const MAX_CERTIFICATE_PEM = 8192;
/** One PEM certificate: the armour lines around base64 lines (\n or \r\n), or nothing. */
const PEM_SHAPE =
  /^(-----BEGIN CERTIFICATE-----\r?\n([A-Za-z0-9+/=]{1,76}\r?\n)+-----END CERTIFICATE-----\r?\n?)?$/;

/** VlessInbound.certificate_source: '' when the agent says nothing (see the proto). */
const CERTIFICATE_SOURCES_REPORTED = ['', 'acme', 'operator', 'self_signed'] as const;

interface ReportedPins {
  security: string;
  certificateSource: string;
  certificateSha256: string;
  publicKeySha256: string;
  certificatePem: string;
}

/**
 * The certificate pins are consistent: only with TLS, the key pin with the certificate pin, and
 * a PEM sent must be a certificate whose leaf and key hashes are the ones reported (so the
 * formats that trust the PEM and those that pin the hash name the same certificate).
 */
function checkPins(inbound: ReportedPins, ctx: z.RefinementCtx): void {
  const issue = (path: string, message: string) =>
    ctx.addIssue({ code: 'custom', path: [path], message });
  if (inbound.security !== 'tls' && (inbound.certificateSha256 || inbound.certificatePem)) {
    issue('certificateSha256', 'only a TLS inbound has a certificate');
    return;
  }
  if (inbound.security !== 'tls' && inbound.certificateSource) {
    issue('certificateSource', 'only a TLS inbound has a certificate');
    return;
  }
  if (!inbound.certificateSha256) {
    if (inbound.publicKeySha256)
      issue('publicKeySha256', 'must be empty without certificateSha256');
    else if (inbound.certificatePem)
      issue('certificatePem', 'must be empty without certificateSha256');
    return;
  }
  if (!inbound.publicKeySha256) {
    issue('publicKeySha256', 'is required with certificateSha256');
    return;
  }
  if (!inbound.certificatePem) return;
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(inbound.certificatePem);
  } catch {
    issue('certificatePem', 'is not a readable certificate');
    return;
  }
  if (createHash('sha256').update(certificate.raw).digest('hex') !== inbound.certificateSha256) {
    issue('certificatePem', 'does not match certificateSha256');
    return;
  }
  const spki = certificate.publicKey.export({ type: 'spki', format: 'der' });
  if (createHash('sha256').update(spki).digest('base64') !== inbound.publicKeySha256) {
    issue('publicKeySha256', 'does not match the certificate');
  }
}

export const reportRequestSchema = z.object({
  agentVersion: text(32).min(1, 'agentVersion is required'),
  hardware: hardwareSchema.nullable(),
  uptimeSeconds: storedUint64,
  proxyCore: z
    .object({
      state: z.enum([
        'PROXY_CORE_STATE_UNSPECIFIED',
        'PROXY_CORE_STATE_RUNNING',
        'PROXY_CORE_STATE_STOPPED',
        'PROXY_CORE_STATE_RESTARTING',
        'PROXY_CORE_STATE_FAILED',
        'PROXY_CORE_STATE_ABSENT',
      ]),
      name: text(16),
      version: text(32),
      restartCount: z.number().int().min(0),
    })
    .nullable(),
  activeClients: z.number().int().min(0).max(100_000),
  clientCountFailed: z.boolean(),
  clientTraffic: z
    .array(z.object({ clientUuid: uuid, uplinkBytes: uint64, downlinkBytes: uint64 }))
    .max(10_000, 'clientTraffic has too many entries'),
  pingMs: z.number().int().min(0).max(60_000),
  publicHost: host,
  publicPort: z
    .number()
    .int()
    .min(1, 'publicPort must be 1-65535')
    .max(65535, 'publicPort must be 1-65535'),
  inbound: z
    .object({
      security: z.enum(['none', 'tls', 'reality'], {
        error: 'inbound.security must be none, tls or reality',
      }),
      sni: text(253),
      fp: text(32),
      pbk: text(128),
      sid: text(32),
      flow: text(64),
      network: z.enum(['tcp', 'ws', 'grpc', 'http', 'kcp', 'quic'], {
        error: 'inbound.network is not supported',
      }),
      path: z
        .string()
        .max(128, 'must be at most 128 characters')
        .regex(/^(\/[A-Za-z0-9._~!$&'()*+,;=:@%/-]*)?$/, 'must be empty or an URL path')
        .default(''),
      serviceName: z
        .string()
        .max(64, 'must be at most 64 characters')
        .regex(/^[A-Za-z0-9._-]*$/, 'must be letters, digits, dot, dash or underscore')
        .default(''),
      certificateSha256: z
        .string()
        .regex(/^([0-9a-f]{64})?$/, 'must be empty or 64 lower-case hex digits')
        .default(''),
      publicKeySha256: z
        .string()
        .regex(/^([A-Za-z0-9+/]{43}=)?$/, 'must be empty or a base64 SHA-256 (44 characters)')
        .default(''),
      planRevision: storedUint64.default('0'),
      certificatePem: z
        .string()
        .max(MAX_CERTIFICATE_PEM, `must be at most ${MAX_CERTIFICATE_PEM} characters`)
        .regex(PEM_SHAPE, 'must be empty or one PEM certificate')
        .default(''),
      // Where the TLS certificate comes from (the node dashboard shows it); '' from agents before ACME
      // certificates, with REALITY and without security.
      certificateSource: z
        .enum(CERTIFICATE_SOURCES_REPORTED, {
          error: 'inbound.certificateSource must be acme, operator, self_signed or empty',
        })
        .default(''),
      certificateName: text(253).default(''),
      certificateNotAfterMs: storedUint64.default('0'),
      certificateProblem: text(300).default(''),
    })
    .nullable()
    .refine((i) => i !== null, 'inbound is required')
    .superRefine((inbound, ctx) => {
      if (inbound) checkPins(inbound, ctx);
    }),
  appliedClientSetVersion: storedUint64,
  // '' (no traffic, or an agent from before traffic reports) or the batch's UUID, lower-cased so a
  // resend compares equal to the stored id.
  trafficBatchId: z
    .string()
    .refine((id) => id === '' || UUID_PATTERN.test(id), 'must be empty or a UUID')
    .transform((id) => id.toLowerCase())
    .default(''),
});
export type ValidReport = z.infer<typeof reportRequestSchema>;

export const watchClientsRequestSchema = z.object({ knownVersion: uint64 });

/** The first problem, as `field: message`, for the INVALID_ARGUMENT details. */
export function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid message';
  const path = issue.path.join('.');
  return path ? `${path}: ${issue.message}` : issue.message;
}
