import { SubscriptionUrlSecrets } from './subscription-url';

const APP_SECRET = 'test-secret-test-secret-test-secret-0123';

describe('SubscriptionUrlSecrets', () => {
  it('should issue 256-bit secrets found by their hash and shown again from their sealed copy', () => {
    const secrets = new SubscriptionUrlSecrets(APP_SECRET);
    const issued = secrets.issue();
    expect(issued.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(secrets.lookupHash(issued.secret)).toBe(issued.hash);
    expect(secrets.unseal(issued.sealed, issued.hash)).toBe(issued.secret);
    expect(issued.sealed).not.toContain(issued.secret);
    expect(secrets.issue().secret).not.toBe(issued.secret);
  });

  it('should refuse malformed secrets and copies sealed under another APP_SECRET', () => {
    const secrets = new SubscriptionUrlSecrets(APP_SECRET);
    const issued = secrets.issue();
    expect(secrets.lookupHash('short')).toBeNull();
    expect(secrets.lookupHash(`${issued.secret}/x`)).toBeNull();
    const other = new SubscriptionUrlSecrets(`${APP_SECRET}-rotated`);
    expect(other.lookupHash(issued.secret)).not.toBe(issued.hash);
    expect(other.unseal(issued.sealed, issued.hash)).toBeNull();
    const tampered = `${issued.sealed.slice(0, -2)}AA`;
    expect(secrets.unseal(tampered, issued.hash)).toBeNull();
    expect(secrets.unseal(null, issued.hash)).toBeNull();
  });
});
