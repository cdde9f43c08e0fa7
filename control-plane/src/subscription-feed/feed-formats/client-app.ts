/**
 * The app asking for a feed, read from its User-Agent: which one and which version, so each
 * format is written in what that version can load (docs/operators.md, "What each app gets").
 */
export interface ClientApp {
  /** The app as its User-Agent names it (`SFA`, `v2rayNG`, `HiddifyNext`, `clash-verge`...). */
  name: string;
  /** The app's own version, or null when the header carries none. */
  version: readonly number[] | null;
  /**
   * The sing-box core it runs, when the header says: the official apps send
   * `SFA/<app version> (<build>; sing-box <core version>)`, the CLI `sing-box <version>`.
   */
  singBoxVersion: readonly number[] | null;
}

const VERSION = String.raw`v?(\d+(?:\.\d+)*)`;
const NAMED = new RegExp(`^([A-Za-z][\\w.+-]*?)[/ ]${VERSION}`);
const SING_BOX_CORE = new RegExp(String.raw`\bsing-box[/ ]${VERSION}`, 'i');
const SING_BOX_APPS = /^(SFA|SFI|SFM|SFT|sing-box)$/i;

/** The app of a User-Agent, or null for none at all. */
export function clientAppOf(userAgent: string | undefined): ClientApp | null {
  const agent = (userAgent ?? '').trim();
  if (!agent) return null;
  const named = NAMED.exec(agent);
  const name = named?.[1] ?? agent.split(/[/ ;(]/)[0]!;
  const version = named?.[2] ? parseVersion(named[2]) : null;
  // Only the sing-box apps and CLI name the core they run; Hiddify's "like ... sing-box" does not.
  const core = SING_BOX_APPS.test(name) ? SING_BOX_CORE.exec(agent) : null;
  // The official apps are versioned with the core they ship; the core named in the header wins.
  const singBoxVersion = core?.[1]
    ? parseVersion(core[1])
    : SING_BOX_APPS.test(name)
      ? version
      : null;
  return { name, version, singBoxVersion };
}

/** `1.11.4` → [1, 11, 4]. */
export function parseVersion(text: string): number[] {
  return text.split('.').map(Number);
}

/** Whether `version` is `minimum` or later (missing parts count as 0). */
export function atLeast(version: readonly number[], minimum: readonly number[]): boolean {
  for (let i = 0; i < minimum.length; i += 1) {
    const part = version[i] ?? 0;
    if (part !== minimum[i]) return part > minimum[i]!;
  }
  return true;
}

/**
 * The sing-box configuration syntax a client can load:
 * - `legacy` (before 1.11): no rule actions (a hard error there); sniffing on the inbounds, a
 *   `dns` outbound that a `protocol: dns` rule sends DNS to, DNS servers by `address`;
 * - `1.11`: rule actions, DNS servers still by `address` (the new typed servers came in 1.12);
 * - `1.12`: rule actions and typed DNS servers, `route.default_domain_resolver` (the legacy DNS
 *   servers are gone in 1.14). Apps that do not say which core they run get this one.
 */
export type SingBoxSyntax = 'legacy' | '1.11' | '1.12';

export function singBoxSyntax(client: ClientApp | null): SingBoxSyntax {
  const core = client?.singBoxVersion;
  if (!core) return '1.12';
  if (!atLeast(core, [1, 11])) return 'legacy';
  return atLeast(core, [1, 12]) ? '1.12' : '1.11';
}

/** sing-box before 1.10 names the tun address `inet4_address`, not `address`. */
export function singBoxTunAddressField(client: ClientApp | null): 'address' | 'inet4_address' {
  const core = client?.singBoxVersion;
  return core && !atLeast(core, [1, 10]) ? 'inet4_address' : 'address';
}

/**
 * The apps whose Xray core reads `pinnedPeerCertSha256` (the link's `pcs`): v2rayNG 2.0.7 and
 * v2rayN 7.17.1 and later. Older cores ignore the field silently and then refuse the
 * self-signed certificate, so everyone else gets the certificate itself to trust.
 */
const PIN_READERS: readonly { name: RegExp; minimum: readonly number[] }[] = [
  { name: /^v2rayNG$/i, minimum: [2, 0, 7] },
  { name: /^v2rayN$/i, minimum: [7, 17, 1] },
];

export function xrayReadsPin(client: ClientApp | null): boolean {
  if (!client?.version) return false;
  const version = client.version;
  return PIN_READERS.some(
    (reader) => reader.name.test(client.name) && atLeast(version, reader.minimum),
  );
}
