import { VPS_TIERS, type VpsTier } from '@scn/proto';
import type { HardwareSummary } from './hardware';

const GIB = 1024 ** 3;

export type TierCheck = { ok: true; tier: VpsTier } | { ok: false; reason: string };

export function findTier(tierId: string): VpsTier | undefined {
  return VPS_TIERS.find((t) => t.id === tierId);
}

/** Clients a node of this tier may serve (docs/product/constants.md#market-prices-and-limits tier table). */
export function tierCapacity(tierId: string): number | null {
  return findTier(tierId)?.maxClients ?? null;
}

/**
 * The control plane's rule (nodes.service.ts `meetsTier`, docs/product/constants.md#market-prices-and-limits): cores at least the tier's
 * vCPUs, RAM at least 90% of its GB (the kernel keeps some of what a provider sells as "2 GB").
 * Checked here first so the operator gets the reason before a token is spent.
 */
export function checkTier(
  hardware: Pick<HardwareSummary, 'cpuCores' | 'ramBytes'>,
  tierId: string,
): TierCheck {
  const tier = findTier(tierId);
  if (!tier) {
    return {
      ok: false,
      reason: `unknown tier "${tierId}" (tiers: ${VPS_TIERS.map((t) => t.id).join(', ')})`,
    };
  }
  const problems: string[] = [];
  if (hardware.cpuCores < tier.vcpu) {
    problems.push(`${hardware.cpuCores} CPU core(s), the tier needs ${tier.vcpu}`);
  }
  const ramGib = hardware.ramBytes / GIB;
  if (ramGib < tier.ramGb * 0.9) {
    problems.push(
      `${ramGib.toFixed(2)} GiB RAM, the tier needs ${tier.ramGb} GB (at least ${(tier.ramGb * 0.9).toFixed(2)} GiB)`,
    );
  }
  if (problems.length > 0) {
    return {
      ok: false,
      reason: `this machine does not meet ${tier.id} (${tier.name}): ${problems.join('; ')}`,
    };
  }
  return { ok: true, tier };
}
