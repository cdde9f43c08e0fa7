/**
 * REALITY's camouflage target: what clients claim to visit and what a prober sees. The node
 * relays every handshake it cannot authenticate to the target, so a prober gets the target's
 * own certificate and pages. `scn-agent doctor` checks the configured target against the
 * rules below from the node itself (reality-target-check.ts).
 *
 * What a target must be (docs/operators.md "The REALITY target"):
 * - TLS 1.3 with an X25519 key exchange: REALITY's own handshake is TLS 1.3 over X25519, so a
 *   target answering anything else would differ from what the node answers authenticated
 *   clients (XTLS's RealiTLScanner offers only X25519; PasarGuard's scanner requires X25519 or
 *   X25519MLKEM768).
 * - HTTP/2 by ALPN: the fingerprints clients send (`fp=chrome`) offer h2 first.
 * - A certificate valid for the name, as a browser would check it.
 * - Not behind a CDN: a CDN serves the name from its own address ranges, so the same name on a
 *   VPS address is an anomaly a censor can list cheaply; CDN edges also vary per region.
 * - Not a name censors block or watch first (blockedTargetReason).
 */

export interface RealityTargetCandidate {
  /** `host:port` */
  dest: string;
  why: string;
}

/**
 * The agent's default targets, first one used. Chosen by the rules above from what their
 * operators publish; they are not probed from the development machines (their network rule
 * forbids outside connections), so the node checks the one it uses: `scn-agent doctor`.
 */
export const REALITY_TARGET_CANDIDATES: readonly RealityTargetCandidate[] = [
  {
    dest: 'www.lovelive-anime.jp:443',
    why:
      "the target of XTLS's own REALITY examples (Xray-examples VLESS-Vision-REALITY): TLS 1.3, " +
      'h2 and X25519, served from its own hosting rather than a CDN, no block-list name',
  },
  {
    dest: 'www.debian.org:443',
    why:
      "Debian's static mirrors (not a CDN): TLS 1.3, h2 and X25519; a software site few censors " +
      'block',
  },
  {
    dest: 'github.com:443',
    why:
      "GitHub's own network (not a CDN): TLS 1.3, h2 and X25519; blocking it costs a censor its " +
      'developers, so it is rarely blocked for long',
  },
];

export const DEFAULT_REALITY_DEST = REALITY_TARGET_CANDIDATES[0]!.dest;

/**
 * Names Xray itself warns about (infra/conf/transport_security.go, since v26.7: "will increase
 * the likelihood of your server's IP being blocked by the GFW"): `.ru`, `.ir`, `.cn` names and
 * any containing apple, icloud or microsoft, the targets most nodes used and censors learned.
 */
const XRAY_WARNED_SUFFIXES = ['.ru', '.ir', '.cn'];
const XRAY_WARNED_WORDS = ['apple', 'icloud', 'microsoft'];

/**
 * Names blocked outright in the countries SCN's users come from (China, Iran, Russia): a node
 * claiming to be one of them is either unreachable under the claim or stands out as the only
 * address serving it.
 */
const BLOCKED_DOMAINS = [
  'google.com',
  'youtube.com',
  'facebook.com',
  'instagram.com',
  'whatsapp.com',
  'twitter.com',
  'x.com',
  'telegram.org',
  't.me',
  'wikipedia.org',
  'netflix.com',
];

/** Why `host` is a poor REALITY target by name alone, or null. */
export function blockedTargetReason(host: string): string | null {
  const name = host.toLowerCase().replace(/\.$/, '');
  const suffix = XRAY_WARNED_SUFFIXES.find((s) => name.endsWith(s));
  if (suffix) return `Xray warns that ${suffix} targets get the node's address blocked`;
  const word = XRAY_WARNED_WORDS.find((w) => name.includes(w));
  if (word) return `Xray warns that "${word}" targets get the node's address blocked`;
  const domain = BLOCKED_DOMAINS.find((d) => name === d || name.endsWith(`.${d}`));
  if (domain) return `${domain} is blocked in China, Iran or Russia`;
  return null;
}

/**
 * The lowest client version the node's REALITY accepts (realitySettings.minClientVer). A client
 * writes a version into the first three bytes of its encrypted session id: Xray its own (REALITY
 * came with Xray 1.8.0), sing-box (SFA/SFI/SFM, Hiddify, Karing) always 1.8.1
 * (common/tls/reality_client.go), mihomo (Clash Verge, FlClash) always 1.8.2
 * (component/tls/reality.go). Since Xray v26.7.11 an empty minClientVer means 26.3.27, so every
 * sing-box and mihomo client fails authentication and is relayed to the target's site without a
 * word. 1.8.0 admits every REALITY client there is. Xray logs a warning that a changed
 * minClientVer raises the risk of blocking (its developers want old clients gone); refusing
 * most of the node's apps is worse, and docs/operators.md says so.
 */
export const REALITY_MIN_CLIENT_VER = '1.8.0';
/** No upper bound: an empty maxClientVer is "any version" in every Xray. */
export const REALITY_MAX_CLIENT_VER = '';
