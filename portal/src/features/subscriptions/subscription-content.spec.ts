import { describe, expect, it } from '@jest/globals';
import { CONTENT_ERRORS, parseSubscriptionContent } from './subscription-content';

const A = 'vless://11111111-1111-4111-8111-111111111111@198.51.100.1:443?security=tls#A';
const B = 'vless://11111111-1111-4111-8111-111111111111@198.51.100.2:443?security=tls#B';
const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

describe('parseSubscriptionContent', () => {
  it('should keep only vless lines of plain content (raw group files: one per line)', () => {
    expect(parseSubscriptionContent(`${A}\r\n# comment\n${B}\n`)).toEqual({
      ok: true,
      links: [A, B],
    });
  });

  it('should decode base64 content, with or without padding and line breaks', () => {
    const encoded = base64(`${A}\n${B}`);
    expect(parseSubscriptionContent(encoded)).toEqual({ ok: true, links: [A, B] });
    expect(parseSubscriptionContent(encoded.replace(/=+$/, ''))).toEqual({
      ok: true,
      links: [A, B],
    });
    expect(parseSubscriptionContent(encoded.replace(/(.{20})/g, '$1\n'))).toEqual({
      ok: true,
      links: [A, B],
    });
  });

  it('should say the decoded content is not VLESS when it holds no vless line', () => {
    expect(parseSubscriptionContent(base64('vmess://abc\nss://def'))).toEqual({
      ok: false,
      error: CONTENT_ERRORS.notVless,
    });
  });

  it('should say the data cannot be decoded when base64 is broken', () => {
    expect(parseSubscriptionContent('abcde')).toEqual({
      ok: false,
      error: CONTENT_ERRORS.undecodable,
    });
    // Valid base64 of bytes that are not UTF-8.
    expect(parseSubscriptionContent('/w==')).toEqual({
      ok: false,
      error: CONTENT_ERRORS.undecodable,
    });
  });

  it('should call anything else an invalid format', () => {
    expect(parseSubscriptionContent('<html>oops</html>')).toEqual({
      ok: false,
      error: CONTENT_ERRORS.invalidFormat,
    });
    expect(parseSubscriptionContent('   ')).toEqual({
      ok: false,
      error: CONTENT_ERRORS.invalidFormat,
    });
  });
});
