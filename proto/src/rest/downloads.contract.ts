import { z } from 'zod';

/** docs/product/calls.md#dashboard-calls: the checksum calls of both dashboards (public; the portal waits at most 5 s). */
export const DOWNLOADS_ROUTES = {
  clientChecksums: '/checksums/client',
  serverChecksum: '/checksums/server',
  /** The agent bundle the installer downloads (its checksum is serverChecksum's). */
  agentBundle: '/downloads/scn-agent.tgz',
  /** This control plane's copy of an Android APK (CLIENT_APK_MIRROR), by its file name. */
  clientApk: (fileName: string) => `/downloads/apps/${encodeURIComponent(fileName)}`,
} as const;

/** docs/product/constants.md#billing-and-the-economy: checksums timeout 5 s. */
export const CHECKSUMS_TIMEOUT_MS = 5_000;

/** docs/product/screens.md#dashboards-and-information-pages: the desktop platforms of the Download Client App picker. */
export const CLIENT_PLATFORMS = ['windows-x64', 'macos-arm64', 'macos-intel'] as const;
export type ClientPlatform = (typeof CLIENT_PLATFORMS)[number];

/**
 * Android apps offered as a direct APK download beside the store link (Google Play is blocked in
 * China): each the official GitHub release's universal APK.
 */
export const ANDROID_APKS = ['android-v2rayng', 'android-hiddify'] as const;
export type AndroidApk = (typeof ANDROID_APKS)[number];

const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/, 'checksum must be 64 lowercase hex digits');

/**
 * One desktop client app: the recommended third-party VLESS client for the platform, pinned to a
 * release, with the SHA-256 its publisher's package manifest gives (docs/product/records.md#dashboard-records "Client checksum
 * entries keyed by platform, each with a checksum").
 */
export const clientAppSchema = z.strictObject({
  app: z.string().min(1),
  version: z.string().min(1),
  /** What the picker shows under the platform, e.g. "Windows 10/11". */
  label: z.string().min(1),
  url: z.url({ protocol: /^https$/ }),
  fileName: z.string().min(1),
  algorithm: z.literal('sha256'),
  checksum: sha256Hex,
  /** Where the checksum was published (the package manifest it was copied from). */
  source: z.url({ protocol: /^https$/ }),
});
export type ClientApp = z.infer<typeof clientAppSchema>;

/**
 * An Android APK of the table (client-apps.json). `checksum` is the SHA-256 its publisher gives
 * for the file (the release page lists each file's digest), null until that value has been
 * copied into the table; when set, a mirrored copy must have it.
 */
export const androidApkManifestSchema = clientAppSchema.extend({
  checksum: sha256Hex.nullable(),
  /** The app's package name, e.g. com.v2ray.ang (what Android shows when installing). */
  packageName: z.string().min(1),
});

/**
 * This control plane's copy of an APK (CLIENT_APK_MIRROR): fetched from the upstream `url` of its
 * entry, hashed while it was written, served at `url` (GitHub is slow or blocked on many
 * networks in China and Iran).
 */
export const apkMirrorSchema = z.strictObject({
  /** Where this control plane serves it: /downloads/apps/<fileName>. */
  url: z.string().startsWith('/downloads/apps/'),
  sizeBytes: z.number().int().positive(),
  /** When it was fetched (ISO 8601). */
  fetchedAt: z.iso.datetime(),
  /** The upstream URL it was fetched from (the entry's `url`). */
  source: z.url({ protocol: /^https?$/ }),
});
export type ApkMirror = z.infer<typeof apkMirrorSchema>;

/**
 * An Android APK as GET /checksums/client answers it. Mirrored (`mirror` set): `checksum` is the
 * SHA-256 computed over exactly the bytes served at `mirror.url`. Not mirrored (`mirror: null`):
 * `checksum` is the published one or null, and the portal points to `source` to compare, never
 * showing a hash nobody computed or published.
 */
export const androidApkSchema = androidApkManifestSchema.extend({
  mirror: apkMirrorSchema.nullable(),
});
export type AndroidApkEntry = z.infer<typeof androidApkSchema>;

export const clientChecksumsSchema = z.strictObject({
  'windows-x64': clientAppSchema,
  'macos-arm64': clientAppSchema,
  'macos-intel': clientAppSchema,
  'android-v2rayng': androidApkSchema,
  'android-hiddify': androidApkSchema,
});
export type ClientChecksums = z.infer<typeof clientChecksumsSchema>;

/** client-apps.json: the same table without the mirrors (the control plane adds them). */
export const clientAppsManifestSchema = clientChecksumsSchema.extend({
  'android-v2rayng': androidApkManifestSchema,
  'android-hiddify': androidApkManifestSchema,
});
export type ClientAppsManifest = z.infer<typeof clientAppsManifestSchema>;

export const clientChecksumsResponseSchema = z.object({
  success: z.literal(true),
  data: clientChecksumsSchema,
});
export type ClientChecksumsResponse = z.infer<typeof clientChecksumsResponseSchema>;

export const serverChecksumResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({
    fileName: z.string(),
    url: z.string(),
    algorithm: z.literal('sha256'),
    checksum: sha256Hex,
    sizeBytes: z.number().int().nonnegative(),
  }),
});
export type ServerChecksumResponse = z.infer<typeof serverChecksumResponseSchema>;

export const DOWNLOADS_MESSAGES = {
  agentBundleMissing: 'The agent bundle is not available on this control plane',
  clientApkNotMirrored: 'This app has not been mirrored on this control plane yet',
} as const;
