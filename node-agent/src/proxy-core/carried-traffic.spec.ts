import { CarriedTraffic } from './carried-traffic';

const A = '0a000000-0000-4000-8000-000000000001';
const B = '0b000000-0000-4000-8000-000000000002';

const counter = (clientUuid: string, uplinkBytes: bigint, downlinkBytes: bigint) => ({
  clientUuid,
  uplinkBytes,
  downlinkBytes,
});

describe('CarriedTraffic', () => {
  it('should add the carried counters to the new run and sort by client', () => {
    const carried = new CarriedTraffic();
    carried.carry([counter(B, 10n, 20n), counter(A, 1n, 2n)]);

    expect(carried.addTo([counter(A, 5n, 5n)])).toEqual([counter(A, 6n, 7n), counter(B, 10n, 20n)]);
  });

  it('should replace what was carried when another deliberate restart follows', () => {
    const carried = new CarriedTraffic();
    carried.carry([counter(A, 1n, 2n)]);
    // The second restart's "before" already includes the first one's carried counters.
    carried.carry(carried.addTo([counter(A, 3n, 3n)]));

    expect(carried.addTo([])).toEqual([counter(A, 4n, 5n)]);
  });

  it('should carry nothing once the core crashed', () => {
    const carried = new CarriedTraffic();
    carried.carry([counter(A, 1n, 2n)]);

    carried.drop();

    expect(carried.addTo([counter(B, 1n, 1n)])).toEqual([counter(B, 1n, 1n)]);
  });

  it('should leave the counters it was given unchanged', () => {
    const carried = new CarriedTraffic();
    const given = [counter(A, 1n, 1n)];
    carried.carry([counter(A, 1n, 1n)]);

    carried.addTo(given);

    expect(given).toEqual([counter(A, 1n, 1n)]);
  });
});
