import { hardwareUpgraded, RAM_UPGRADE_MIN_PERCENT } from './hardware-age';

const GIB = 1024 ** 3;
const machine = (cpuCores: number, ramBytes: number) => ({ cpuCores, ramBytes: String(ramBytes) });

describe('hardwareUpgraded', () => {
  it('should call more cores an upgrade, whatever the memory', () => {
    expect(hardwareUpgraded(machine(2, 2 * GIB), machine(4, 2 * GIB))).toBe(true);
    expect(hardwareUpgraded(machine(2, 2 * GIB), machine(3, GIB))).toBe(true);
  });

  it(`should call memory an upgrade from ${RAM_UPGRADE_MIN_PERCENT}% more, not a kernel's few megabytes`, () => {
    expect(hardwareUpgraded(machine(2, 2 * GIB), machine(2, 4 * GIB))).toBe(true);
    expect(hardwareUpgraded(machine(2, 100 * GIB), machine(2, 105 * GIB))).toBe(true);
    expect(hardwareUpgraded(machine(2, 100 * GIB), machine(2, 105 * GIB - 1))).toBe(false);
    expect(hardwareUpgraded(machine(2, 2 * GIB), machine(2, 2 * GIB + 8 * 1024 ** 2))).toBe(false);
  });

  it('should keep the same hardware and a downgrade', () => {
    expect(hardwareUpgraded(machine(2, 2 * GIB), machine(2, 2 * GIB))).toBe(false);
    expect(hardwareUpgraded(machine(4, 4 * GIB), machine(2, 2 * GIB))).toBe(false);
    expect(hardwareUpgraded(machine(4, 4 * GIB), machine(4, GIB))).toBe(false);
  });

  it('should count a stored size of 0 bytes as the smallest', () => {
    expect(hardwareUpgraded(machine(2, 0), machine(2, 1))).toBe(true);
    expect(hardwareUpgraded(machine(2, 0), machine(2, 0))).toBe(false);
  });
});
