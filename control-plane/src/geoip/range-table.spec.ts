import { ipv4Builder, ipv6Builder } from './range-table';

describe('RangeTable', () => {
  const table = () => {
    const b = ipv4Builder(1);
    b.push(0, 9, 1);
    b.push(20, 29, 2);
    b.push(30, 39, 2); // touches the previous one, same value: one row
    b.push(40, 40, 3);
    b.push(0xffffff00, 0xffffffff, 4);
    return b.finish();
  };

  it.each([
    [0, 1],
    [9, 1],
    [10, -1],
    [19, -1],
    [20, 2],
    [35, 2],
    [39, 2],
    [40, 3],
    [41, -1],
    [0xfffffeff, -1],
    [0xffffff00, 4],
    [0xffffffff, 4],
  ])('should find %i in the range holding it (value %i), -1 in a gap', (key, value) => {
    expect(table().find(key)).toBe(value);
  });

  it('should merge touching rows of one value, and keep exactly its rows', () => {
    const t = table();
    expect(t.length).toBe(4);
    expect(t.byteLength).toBe(4 * 12);
  });

  it('should find nothing in an empty table', () => {
    expect(ipv4Builder(0).finish().find(5)).toBe(-1);
  });

  it('should refuse rows out of order, and a range that ends before it starts', () => {
    const b = ipv4Builder(4);
    b.push(100, 200, 1);
    expect(() => b.push(50, 60, 1)).toThrow('not sorted');
    expect(() => b.push(300, 299, 1)).toThrow('ends before it starts');
  });

  it('should keep the earlier value where 64-bit IPv6 keys overlap, and count the overlap', () => {
    const b = ipv6Builder(2);
    b.push(10n, 10n, 1); // a network below /64: its upper 64 bits are one key
    b.push(10n, 12n, 2);
    b.push(10n, 11n, 3); // wholly inside what is there: dropped
    const t = b.finish();
    expect([t.find(9n), t.find(10n), t.find(11n), t.find(12n), t.find(13n)]).toEqual([
      -1, 1, 2, 2, -1,
    ]);
    expect(b.overlaps).toBe(2);
  });

  it('should grow past its first capacity', () => {
    const b = ipv6Builder(1);
    for (let i = 0n; i < 100n; i++) b.push(i * 10n, i * 10n + 5n, Number(i % 2n));
    const t = b.finish();
    expect(t.length).toBe(100);
    expect(t.find(995n)).toBe(1);
    expect(t.find(996n)).toBe(-1);
  });
});
