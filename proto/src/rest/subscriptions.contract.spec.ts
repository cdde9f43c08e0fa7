import {
  createSubscriptionRequestSchema,
  decodeSubscriptionContent,
  SUBSCRIPTION_MESSAGES,
} from './subscriptions.contract';

const LINK_A = 'vless://3f2b8c1e-1234-4abc-8def-0123456789ab@a.example:443?security=none#A';
const LINK_B =
  'vless://3f2b8c1e-1234-4abc-8def-0123456789ab@b.example:8443?security=tls#B%20%C3%A9';
const SERVER = '00000000-0000-4000-8000-000000000001';
const UUID = '6F1E2D3C-4B5A-4978-8A6B-5C4D3E2F1A0B';

describe('decodeSubscriptionContent', () => {
  it('should decode base64 group content into its vless links (spec 02 §5)', () => {
    const content = Buffer.from(`${LINK_A}\n${LINK_B}`).toString('base64');
    expect(decodeSubscriptionContent(content)).toEqual([LINK_A, LINK_B]);
    expect(decodeSubscriptionContent(`${content.slice(0, 20)}\n${content.slice(20)}\n`)).toEqual([
      LINK_A,
      LINK_B,
    ]);
  });

  it('should keep only vless lines of plain content and refuse anything else', () => {
    expect(decodeSubscriptionContent(`${LINK_A}\r\nvmess://x\n${LINK_B}\n`)).toEqual([
      LINK_A,
      LINK_B,
    ]);
    expect(decodeSubscriptionContent(Buffer.from('hello').toString('base64'))).toBeNull();
    expect(decodeSubscriptionContent('<html>not found</html>')).toBeNull();
  });
});

describe('createSubscriptionRequestSchema', () => {
  it('should default to monthly billing, lower-case ids and accept the old fields', () => {
    const parsed = createSubscriptionRequestSchema.parse({
      uuid: UUID,
      serverIds: [SERVER.toUpperCase()],
      paymentId: null,
      isFreeSubscription: true,
    });
    expect(parsed).toMatchObject({
      uuid: UUID.toLowerCase(),
      serverIds: [SERVER],
      billingCycle: 'monthly',
    });
  });

  it.each([
    [{ serverIds: [] }, SUBSCRIPTION_MESSAGES.serverIdsRequired],
    [{ serverIds: [SERVER, SERVER] }, SUBSCRIPTION_MESSAGES.serverIdsDuplicate],
    [{ serverIds: [SERVER], billingCycle: 'daily' }, SUBSCRIPTION_MESSAGES.billingCycleInvalid],
    [{ serverIds: [SERVER], price: 1 }, 'Unknown field: price'],
  ])('should refuse %j', (fields, message) => {
    const result = createSubscriptionRequestSchema.safeParse({ uuid: UUID, ...fields });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(message);
  });
});
