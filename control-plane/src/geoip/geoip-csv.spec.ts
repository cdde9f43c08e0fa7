import { AsnTable, countryCode, countryValue, readIpv4Ranges, readIpv6Ranges } from './geoip-csv';

describe('ip-location-db CSV', () => {
  it('should read ASN rows with quoted names (commas, doubled quotes) into one name table', async () => {
    const asns = new AsnTable();
    const csv = [
      '16777216,16777471,13335,"Cloudflare, Inc."',
      '16778240,16779263,38803,Gtelecom Pty Ltd\r',
      '16779264,16779519,13335,"Cloudflare, Inc."',
      '16779520,16779775,64500,"The ""Quoted"" Net"',
      '16779776,16779777,64501,',
      '',
    ].join('\n');
    const table = (await readIpv4Ranges(Buffer.from(csv), asns.value, 'asn.csv')).finish();
    const at = (key: number) => {
      const i = table.find(key);
      return i < 0 ? null : [asns.numbers[i], asns.names[i]];
    };
    expect(at(16777216)).toEqual([13335, 'Cloudflare, Inc.']);
    expect(at(16779263)).toEqual([38803, 'Gtelecom Pty Ltd']);
    expect(at(16779519)).toEqual([13335, 'Cloudflare, Inc.']);
    expect(at(16779600)).toEqual([64500, 'The "Quoted" Net']);
    expect(at(16779777)).toEqual([64501, null]);
    expect(at(16777472)).toBeNull();
    // Cloudflare's two rows share one entry.
    expect(asns.numbers).toEqual([13335, 38803, 64500, 64501]);
  });

  it('should key IPv6 rows by their upper 64 bits', async () => {
    const start = (0x20014860n << 96n).toString();
    const end = ((0x20014861n << 96n) - 1n).toString();
    const table = (
      await readIpv6Ranges(Buffer.from(`${start},${end},US\n`), countryValue, 'c6.csv')
    ).finish();
    const i = table.find(0x2001486048600000n);
    expect(countryCode(i)).toBe('US');
    expect(table.find(0x2001486100000000n)).toBe(-1);
  });

  it.each([
    ['1,2\n', 'bad.csv:1: not start,end,...'],
    ['1,2,AU\nx,3,AU\n', 'bad.csv:2: not IPv4 numbers'],
    ['1,4294967296,AU\n', 'bad.csv:1: not IPv4 numbers'],
    ['1,2,Australia\n', 'bad.csv:1: unreadable value "Australia"'],
    ['5,6,AU\n1,2,AU\n', 'bad.csv:2: the rows are not sorted'],
  ])('should refuse %j, naming the file and line', async (csv, message) => {
    await expect(readIpv4Ranges(Buffer.from(csv), countryValue, 'bad.csv')).rejects.toThrow(
      message,
    );
  });

  it('should refuse an IPv6 number above 128 bits', async () => {
    const big = (1n << 128n).toString();
    await expect(
      readIpv6Ranges(Buffer.from(`1,${big},AU\n`), countryValue, 'c6.csv'),
    ).rejects.toThrow('c6.csv:1: not IPv6 numbers');
  });
});
