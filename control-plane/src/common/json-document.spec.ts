import etag from 'etag';
import { JsonDocument } from './json-document';

describe('JsonDocument', () => {
  it('should serialize once and tag the body as Express would', () => {
    const value = { success: true, servers: [{ id: 'a', name: 'Zürich ✓' }], total: 1 };
    const document = new JsonDocument(value);
    expect(document.json).toBe(JSON.stringify(value));
    expect(document.etag).toBe(etag(Buffer.from(document.json), { weak: true }));
    expect(new JsonDocument({ ...value, total: 2 }).etag).not.toBe(document.etag);
  });

  it('should set the JSON type and the tag on the response and return the body', () => {
    const headers = new Map<string, string>();
    const response = { setHeader: (name: string, value: string) => headers.set(name, value) };
    const document = new JsonDocument({ success: true });
    expect(document.sendWith(response as never)).toBe('{"success":true}');
    expect(Object.fromEntries(headers)).toEqual({
      'Content-Type': 'application/json; charset=utf-8',
      ETag: document.etag,
    });
  });
});
