import { normalizePostUrl } from './share-url';

describe('normalizePostUrl', () => {
  it.each([
    'https://x.com/alice/status/1234567890',
    'https://twitter.com/alice/status/1234567890',
    'https://www.twitter.com/Bob/status/1234567890?s=20&t=abc',
    'https://mobile.x.com/alice/status/1234567890/',
    'https://X.COM/i/web/status/1234567890#frag',
    'https://x.com/alice/status/1234567890/photo/1',
  ])('should spell %s as one X post', (text) => {
    expect(normalizePostUrl('twitter', text)).toEqual({
      url: 'https://x.com/i/status/1234567890',
      path: '/i/status/1234567890',
    });
  });

  it.each([
    'https://www.instagram.com/p/CxYz12_-AB/',
    'https://instagram.com/p/CxYz12_-AB',
    'https://www.instagram.com/reel/CxYz12_-AB/?igsh=abc',
    'https://www.instagram.com/someone/p/CxYz12_-AB/',
  ])('should spell %s as one Instagram post', (text) => {
    expect(normalizePostUrl('instagram', text)?.url).toBe(
      'https://www.instagram.com/p/CxYz12_-AB/',
    );
  });

  it.each([
    'https://t.me/ScnChannel/42',
    'https://t.me/s/scnchannel/42?single',
    'https://telegram.me/scnchannel/042/',
    'https://www.t.me/SCNCHANNEL/42#top',
  ])('should spell %s as one Telegram post', (text) => {
    expect(normalizePostUrl('telegram', text)).toEqual({
      url: 'https://t.me/scnchannel/42',
      path: '/scnchannel/42',
    });
  });

  it.each<['twitter' | 'instagram' | 'telegram', string]>([
    ['twitter', 'http://x.com/alice/status/1234567890'],
    ['twitter', 'https://x.com.evil.example/alice/status/1234567890'],
    ['twitter', 'https://evil.example/x.com/alice/status/1234567890'],
    ['twitter', 'https://x.com/alice'],
    ['twitter', 'https://x.com/'],
    ['twitter', 'https://x.com:8443/alice/status/1234567890'],
    ['twitter', 'https://user:pw@x.com/alice/status/1234567890'],
    ['twitter', 'https://x.com/alice/status/abc'],
    ['twitter', 'https://x.com/alice/status/0'],
    ['twitter', 'https://www.instagram.com/p/CxYz12_-AB/'],
    ['instagram', 'https://x.com/alice/status/1234567890'],
    ['instagram', 'https://www.instagram.com/someone/'],
    ['instagram', 'https://m.instagram.com.example.org/p/CxYz12_-AB/'],
    ['instagram', 'not a url'],
    ['telegram', 'https://t.me/c/1234567/42'],
    ['telegram', 'https://t.me/scnchannel'],
    ['telegram', 'https://t.me/scnchannel/0'],
    ['telegram', 'http://t.me/scnchannel/42'],
    ['telegram', 'https://t.me.evil.example/scnchannel/42'],
    ['telegram', 'https://t.me/joinchat/AAAAAE'],
    ['telegram', 'https://x.com/alice/status/1234567890'],
    ['twitter', 'https://t.me/scnchannel/42'],
  ])('should refuse %s %s', (platform, text) => {
    expect(normalizePostUrl(platform, text)).toBeNull();
  });

  it('should keep Instagram shortcodes case-sensitive', () => {
    expect(normalizePostUrl('instagram', 'https://instagram.com/p/AbCdE/')?.url).not.toBe(
      normalizePostUrl('instagram', 'https://instagram.com/p/abcde/')?.url,
    );
  });
});
