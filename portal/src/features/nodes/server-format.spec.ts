import { describe, expect, it } from '@jest/globals';
import { certificateView, formatAddress, formatDateTime, type NodeT } from './server-format';

describe('formatAddress', () => {
  it('should bracket an IPv6 host before its port, however it was stored', () => {
    expect(formatAddress('2001:db8::1', 443)).toBe('[2001:db8::1]:443');
    expect(formatAddress('[2001:DB8::1]', 443)).toBe('[2001:db8::1]:443');
    expect(formatAddress('::1', null)).toBe('[::1]');
  });

  it('should show a name or IPv4 host as host:port', () => {
    expect(formatAddress('node.example.net', 443)).toBe('node.example.net:443');
    expect(formatAddress('203.0.113.7', 8443)).toBe('203.0.113.7:8443');
  });

  it('should give none when the node has not reported yet', () => {
    expect(formatAddress(null, null)).toBeNull();
  });
});

describe('certificateView', () => {
  // The key and its values, so each case shows which message the card picks and with what.
  const t = ((key: string, values?: Record<string, string>) =>
    values ? `${key} ${JSON.stringify(values)}` : key) as unknown as NodeT;

  it('should call an ACME certificate trusted, with its name and when it renews', () => {
    const view = certificateView(
      {
        source: 'acme',
        name: 'n1.nodes.example.net',
        notAfter: '2027-01-01T00:00:00.000Z',
        problem: '',
      },
      t,
      'en',
    );
    expect(view.tone).toBe('success');
    expect(view.hint).toBeNull();
    expect(view.text).toBe(
      `card.certificate.trusted ${JSON.stringify({ name: 'n1.nodes.example.net', date: formatDateTime('2027-01-01T00:00:00.000Z', 'en') })}`,
    );
  });

  it("should name the operator's certificate", () => {
    expect(
      certificateView(
        { source: 'operator', name: 'vpn.example.org', notAfter: null, problem: '' },
        t,
        'en',
      ),
    ).toEqual({
      tone: 'neutral',
      text: `card.certificate.operator ${JSON.stringify({ name: 'vpn.example.org' })}`,
      hint: null,
      command: null,
    });
  });

  it('should warn of a self-signed certificate with the reason and how to get a trusted one', () => {
    expect(
      certificateView(
        {
          source: 'self_signed',
          name: '203.0.113.5',
          notAfter: null,
          problem: 'port 80 is closed',
        },
        t,
        'en',
      ),
    ).toEqual({
      tone: 'warning',
      text: `card.certificate.selfSigned ${JSON.stringify({ problem: 'port 80 is closed' })}`,
      hint: 'card.certificate.selfSignedHint',
      command: 'scn-agent certificate --domain <your.domain>',
    });
    expect(
      certificateView({ source: 'self_signed', name: '', notAfter: null, problem: '' }, t, 'en')
        .text,
    ).toBe('card.certificate.selfSignedNoProblem');
  });
});
