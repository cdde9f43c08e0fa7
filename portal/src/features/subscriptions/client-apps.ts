import { ANDROID_APKS, type ClientPlatform } from '@scn/proto';

/** docs/product/screens.md#dashboards-and-information-pages: the desktop platforms of the picker, in order, with their names. */
export const DESKTOP_PLATFORMS: readonly { platform: ClientPlatform; name: string }[] = [
  { platform: 'windows-x64', name: 'Windows' },
  { platform: 'macos-arm64', name: 'macOS (Apple silicon)' },
  { platform: 'macos-intel', name: 'macOS (Intel)' },
];

/** Where the desktop app's releases are, should the pinned list not load. */
export const DESKTOP_RELEASES_URL = 'https://github.com/2dust/v2rayN/releases';

/**
 * docs/product/screens.md#dashboards-and-information-pages: iOS and Android link to third-party apps for now. Both import VLESS links and
 * subscription URLs from the clipboard or a QR code.
 */
export const MOBILE_APPS = [
  {
    platform: 'ios',
    name: 'iOS',
    app: 'Streisand',
    url: 'https://apps.apple.com/us/app/streisand/id6450534064',
    store: 'App Store',
  },
  {
    platform: 'android',
    name: 'Android',
    app: 'v2rayNG',
    url: 'https://play.google.com/store/apps/details?id=com.v2ray.ang',
    store: 'Google Play',
  },
] as const;

/**
 * iOS apps that import the same links, for where Streisand is missing from the App Store of a
 * region. Shadowrocket is paid; the others are free.
 */
export const IOS_ALTERNATIVES = [
  {
    id: 'hiddify',
    app: 'Hiddify',
    url: 'https://apps.apple.com/us/app/hiddify-proxy-vpn/id6596777532',
    paid: false,
  },
  {
    id: 'foxray',
    app: 'FoXray',
    url: 'https://apps.apple.com/us/app/foxray/id6448898396',
    paid: false,
  },
  {
    id: 'shadowrocket',
    app: 'Shadowrocket',
    url: 'https://apps.apple.com/us/app/shadowrocket/id932747118',
    paid: true,
  },
] as const;

/** Android apps offered as a direct APK (Google Play is blocked in China), from /checksums/client. */
export const APK_DOWNLOADS = ANDROID_APKS;

export type InstallPlatform = 'windows' | 'macos';

export function installPlatformOf(platform: ClientPlatform): InstallPlatform {
  return platform === 'windows-x64' ? 'windows' : 'macos';
}
