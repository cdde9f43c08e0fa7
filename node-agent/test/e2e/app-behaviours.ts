/**
 * What each app that imports `vless://` links reads from one, taken from the apps' own sources
 * (each row cites the files and functions read; versions are the tags read). The test helper
 * vless-link-client.ts builds a client "as app X would" from this table and nothing else, so a
 * link that one of these apps cannot use fails a test.
 *
 * Every app ends with the server address as the TLS server name when no link field gives one:
 * its core does so (Xray `transport/internet/tls/config.go` WithDestination: the destination
 * address, an IP too; sing-box `common/tls/std_client.go` NewSTDClient: the server address;
 * mihomo `adapter/outbound/vless.go` streamTLSConn: the server host). Go sends no SNI for an IP
 * and then checks the certificate's IP SANs.
 *
 * Columns the v2ray 4.34 test client cannot reproduce are still recorded: `fp` (uTLS
 * ClientHello fingerprints; it changes how the hello looks, not which certificate is trusted).
 *
 * Not modelled, for want of a readable source: Karing (its link import is not in its public
 * repository), Streisand and Shadowrocket (closed source, no documented field list), SFA/SFI/SFM
 * (sing-box's own apps import sing-box profiles; no `vless://` parser was read). Clash Verge and
 * FlClash import links through mihomo's converter (the `mihomo-converter` row).
 */

export type AppId =
  | 'v2rayng-before-2.0.7'
  | 'v2rayng-2.0.7'
  | 'v2rayn-before-7.17.1'
  | 'v2rayn-7.17.1'
  | 'v2rayn-7.24.5'
  | 'hiddify'
  | 'nekobox-android'
  | 'nekoray'
  | 'mihomo-converter';

/** The newest pinning v2rayNG: what the e2e suites meant before apps were named. */
export const DEFAULT_APP: AppId = 'v2rayng-2.0.7';

export interface AppBehaviour {
  id: AppId;
  name: string;
  versions: string;
  /** The core the app builds its outbound for. */
  core: 'xray' | 'sing-box' | 'mihomo';
  /**
   * Where the TLS server name comes from when `sni` is empty: link parameters tried in order
   * (grpc has its own list), then the server address (every core; see the module comment).
   */
  serverNameFrom: { default: readonly string[]; grpc: readonly string[] };
  /** A fallback parameter (not `sni` itself) is used only when it is a DNS name (v2rayNG). */
  fallbackNeedsDomainName: boolean;
  /** Link parameters that turn certificate checks off, and the values that mean yes. */
  allowInsecure: {
    keys: readonly string[];
    /** Values read as true; 'any-non-empty' when any value at all does. */
    trueValues: readonly string[] | 'any-non-empty';
    /** The app's default when the link has none (its own setting, off unless a user turns it on). */
    defaultValue: false;
  };
  /** Reads `pcs` (SHA-256 of the leaf) and trusts only the pinned certificate. */
  readsPcs: boolean;
  /** Reads a PEM certificate from this parameter and trusts only it (sing-box `certificate`). */
  certificateParam?: string;
  readsFp: boolean;
  /** Reads `alpn`; 'h2-http1-for-ws-grpc-httpupgrade' when set, the app replaces it for those. */
  alpn: 'as-given' | 'h2-http1-for-ws-grpc-httpupgrade';
  /** The parameter(s) a grpc service name is read from, in order. */
  grpcServiceNameFrom: readonly string[];
  readsFlow: boolean;
  /** Reads `encryption` (else the VLESS outbound has none). */
  readsEncryption: boolean;
  /** Matches parameter names case-insensitively, `_` and `-` alike (Hiddify). */
  caseInsensitiveNames: boolean;
}

const XRAY_SHARE_LINK_TRANSPORT = { grpcServiceNameFrom: ['serviceName'] } as const;

/** The allowInsecure reading v2rayNG and v2rayN share (their FmtBase/BaseFmt query parsers). */
const V2RAY_APPS_INSECURE: AppBehaviour['allowInsecure'] = {
  keys: ['insecure', 'allowInsecure', 'allow_insecure'],
  trueValues: ['1'],
  defaultValue: false,
};

/** v2rayNG before 2.0.7; its row below says where each field was read. */
const V2RAYNG_BEFORE_2_0_7: AppBehaviour = {
  id: 'v2rayng-before-2.0.7',
  name: 'v2rayNG',
  versions: '<2.0.7',
  core: 'xray',
  serverNameFrom: { default: ['sni', 'host'], grpc: ['sni', 'authority'] },
  fallbackNeedsDomainName: true,
  allowInsecure: V2RAY_APPS_INSECURE,
  readsPcs: false,
  readsFp: true,
  alpn: 'as-given',
  ...XRAY_SHARE_LINK_TRANSPORT,
  readsFlow: true,
  readsEncryption: true,
  caseInsensitiveNames: false,
};

/** v2rayN before 7.17.1: as v2rayNG, but any server name fallback, an IP too. */
const V2RAYN_BEFORE_7_17_1: AppBehaviour = {
  ...V2RAYNG_BEFORE_2_0_7,
  id: 'v2rayn-before-7.17.1',
  name: 'v2rayN',
  versions: '<7.17.1',
  fallbackNeedsDomainName: false,
};

/** v2rayN 7.17.1 up to 7.24.5: as before, and pins `pcs`. */
const V2RAYN_7_17_1: AppBehaviour = {
  ...V2RAYN_BEFORE_7_17_1,
  id: 'v2rayn-7.17.1',
  versions: '>=7.17.1 <7.24.5',
  readsPcs: true,
};

export const APP_BEHAVIOURS: Readonly<Record<AppId, AppBehaviour>> = {
  // 2dust/v2rayNG tag 2.0.6: fmt/FmtBase.kt getItemFormQuery (security tls|reality else none;
  // insecure|allowInsecure|allow_insecure "1"/"0", else the PREF_ALLOW_INSECURE setting, default
  // false; sni, fp, alpn, flow, type/host/path/serviceName/authority; no pcs), fmt/VlessFmt.kt
  // parse (encryption, default none), handler/V2rayConfigManager.kt populateTransportSettings
  // (sniExt: the host of tcp/ws/httpupgrade/xhttp/h2, `authority` for grpc) and
  // populateTlsSettings (sni, else sniExt if a domain name, else the server if a domain name).
  'v2rayng-before-2.0.7': V2RAYNG_BEFORE_2_0_7,
  // v2rayNG tag 2.0.7 (commit 6cf6057d "Add support for pinned certificate SHA-256
  // fingerprints"): as 2.0.6, and FmtBase.getItemFormQuery reads `pcs` into pinnedCA256, which
  // populateTlsSettings writes as Xray's tlsSettings.pinnedPeerCertSha256 (still there in 2.3.5,
  // core/CoreOutboundBuilder.kt).
  'v2rayng-2.0.7': {
    ...V2RAYNG_BEFORE_2_0_7,
    id: 'v2rayng-2.0.7',
    versions: '>=2.0.7',
    readsPcs: true,
  },
  // 2dust/v2rayN tag 7.17.0: ServiceLib/Handler/Fmt/VLESSFmt.cs Resolve (encryption default
  // none, flow), Fmt/BaseFmt.cs ResolveUriQuery (security, sni, alpn, fp, insecure|allowInsecure|
  // allow_insecure "1"/"0", else DefAllowInsecure, default false; type/host/path/serviceName/
  // authority; no pcs), Services/CoreConfig/V2ray/V2rayOutboundService.cs GenBoundStreamSettings
  // (serverName: sni, else the first `host`; grpc's host is its authority).
  'v2rayn-before-7.17.1': V2RAYN_BEFORE_7_17_1,
  // v2rayN tag 7.17.1 (commit 4e5f1838 "Add Cert SHA-256 pinning support"): as 7.17.0, and
  // BaseFmt.ResolveUriQuery reads `pcs` into CertSha, which V2rayOutboundService writes as
  // tlsSettings.pinnedPeerCertSha256 when no certificate is set.
  'v2rayn-7.17.1': V2RAYN_7_17_1,
  // v2rayN tag 7.24.5 (commit b27ae11d "Adjust allow insecure fmt": "Remove VLESS insecure
  // fmt"): as 7.17.1 without allowInsecure; BaseFmt.ResolveUriQuery no longer reads it and
  // V2rayOutboundService (7.24.8) writes no allowInsecure (current Xray refuses it).
  'v2rayn-7.24.5': {
    ...V2RAYN_7_17_1,
    id: 'v2rayn-7.24.5',
    versions: '>=7.24.5',
    allowInsecure: { keys: [], trueValues: [], defaultValue: false },
  },
  // hiddify/ray2sing (Hiddify's link parser; its Xray path is switched off in convert.go
  // processSingleConfig): url_schema.go ParseUrl (parameter names lower-cased, `_`/`-` read as
  // spaces), vless.go VlessSingbox (flow; no encryption), common.go getTLSOptions (security
  // tls|reality; server_name: sni, else `add`, which a vless link does not have; fp as uTLS;
  // insecure|allowinsecure "true"/"1"; alpn, replaced by h2,http/1.1 for ws/grpc/httpupgrade; no
  // pcs) and getTransportOptions (host, path, servicename when path is empty).
  hiddify: {
    id: 'hiddify',
    name: 'Hiddify',
    versions: 'ray2sing (current)',
    core: 'sing-box',
    serverNameFrom: { default: ['sni'], grpc: ['sni'] },
    fallbackNeedsDomainName: false,
    allowInsecure: {
      keys: ['insecure', 'allowinsecure'],
      trueValues: ['true', '1'],
      defaultValue: false,
    },
    readsPcs: false,
    readsFp: true,
    alpn: 'h2-http1-for-ws-grpc-httpupgrade',
    grpcServiceNameFrom: ['path', 'serviceName'],
    readsFlow: true,
    readsEncryption: false,
    caseInsensitiveNames: true,
  },
  // MatsuriDayo/NekoBoxForAndroid (2026-02): fmt/v2ray/V2RayFmt.kt parseDuckSoft (security
  // tls|reality; allowInsecure "1"/"true"; sni, else host; alpn; `cert` as a PEM certificate; fp
  // as uTLS; flow; encryption only for VMess; no pcs) and buildSingBoxOutboundTLSOptions
  // (insecure: the link's or the global setting; server_name only when sni is set; certificate).
  'nekobox-android': {
    id: 'nekobox-android',
    name: 'NekoBox for Android',
    versions: '1.x (2026-02)',
    core: 'sing-box',
    serverNameFrom: { default: ['sni', 'host'], grpc: ['sni', 'host'] },
    fallbackNeedsDomainName: false,
    allowInsecure: { keys: ['allowInsecure'], trueValues: ['1', 'true'], defaultValue: false },
    readsPcs: false,
    certificateParam: 'cert',
    readsFp: true,
    alpn: 'as-given',
    ...XRAY_SHARE_LINK_TRANSPORT,
    readsFlow: true,
    readsEncryption: false,
    caseInsensitiveNames: false,
  },
  // MatsuriDayo/nekoray (2024-07, last release): fmt/Link2Bean.cpp TrojanVLESSBean::TryParseLink
  // (security, reality read as tls; sni, overridden by `peer`; alpn; allowInsecure: any value;
  // fp, else the global uTLS setting; type/host/path/serviceName; flow; no encryption, no pcs),
  // fmt/Bean2CoreObj_box.cpp V2rayStreamSettings::BuildStreamSettingsSingBox (server_name only
  // when sni is set).
  nekoray: {
    id: 'nekoray',
    name: 'NekoRay',
    versions: '<=4.0.1 (archived 2024)',
    core: 'sing-box',
    serverNameFrom: { default: ['peer', 'sni'], grpc: ['peer', 'sni'] },
    fallbackNeedsDomainName: false,
    allowInsecure: { keys: ['allowInsecure'], trueValues: 'any-non-empty', defaultValue: false },
    readsPcs: false,
    readsFp: true,
    alpn: 'as-given',
    ...XRAY_SHARE_LINK_TRANSPORT,
    readsFlow: true,
    readsEncryption: false,
    caseInsensitiveNames: false,
  },
  // MetaCubeX/mihomo (Meta/Alpha, 2025-02): common/convert/v.go handleVShareLink (security
  // ending in tls; servername only from sni; fp as client-fingerprint, default chrome; alpn;
  // type/headerType/host/path/serviceName; no skip-cert-verify, no pcs) and converter.go's vless
  // case (flow; no encryption); adapter/outbound/vless.go streamTLSConn (the server host when
  // servername is empty).
  'mihomo-converter': {
    id: 'mihomo-converter',
    name: "mihomo's link converter (Clash Verge, FlClash)",
    versions: 'mihomo 1.19 (2025-02)',
    core: 'mihomo',
    serverNameFrom: { default: ['sni'], grpc: ['sni'] },
    fallbackNeedsDomainName: false,
    allowInsecure: { keys: [], trueValues: [], defaultValue: false },
    readsPcs: false,
    readsFp: true,
    alpn: 'as-given',
    ...XRAY_SHARE_LINK_TRANSPORT,
    readsFlow: true,
    readsEncryption: false,
    caseInsensitiveNames: false,
  },
};

export const APP_IDS = Object.keys(APP_BEHAVIOURS) as AppId[];

/** The apps that pin the link's `pcs`; the others verify against the system roots. */
export const PINNING_APPS = APP_IDS.filter((id) => APP_BEHAVIOURS[id].readsPcs);
export const NON_PINNING_APPS = APP_IDS.filter((id) => !APP_BEHAVIOURS[id].readsPcs);
