import type { ClientPlatform } from '@scn/proto';

/** spec 02 §2: the desktop platforms of the picker, in order, with their names. */
export const DESKTOP_PLATFORMS: readonly { platform: ClientPlatform; name: string }[] = [
  { platform: 'windows-x64', name: 'Windows' },
  { platform: 'macos-arm64', name: 'macOS (Apple silicon)' },
  { platform: 'macos-intel', name: 'macOS (Intel)' },
];

/** Where the desktop app's releases are, should the pinned list not load. */
export const DESKTOP_RELEASES_URL = 'https://github.com/2dust/v2rayN/releases';

/**
 * spec 02 §2: iOS and Android link to third-party apps for now. Both import VLESS links and
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

export type InstallPlatform = 'windows' | 'macos';

export function installPlatformOf(platform: ClientPlatform): InstallPlatform {
  return platform === 'windows-x64' ? 'windows' : 'macos';
}
