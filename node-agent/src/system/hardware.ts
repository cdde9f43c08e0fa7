import type { HardwareSummary as ProtoHardwareSummary } from '@scn/proto';
import { cpu } from 'systeminformation/lib/cpu';
import { fsSize } from 'systeminformation/lib/filesystem';
import { mem } from 'systeminformation/lib/memory';
import { osInfo } from 'systeminformation/lib/osinfo';

/**
 * What the agent measures about its machine: sent at enrollment, and in reports in the first after a
 * start, on a change and at least hourly (Reporter, HARDWARE_RESEND_MS).
 */
export interface HardwareSummary {
  os: string;
  osRelease: string;
  arch: string;
  /**
   * Logical CPUs (systeminformation's `cpus`, what `nproc` shows): a VPS sells vCPUs, which
   * are logical cores, and the tier table counts vCPUs.
   */
  cpuCores: number;
  cpuModel: string;
  cpuGhz: number;
  ramBytes: number;
  /** Size of the filesystem mounted at `/`. */
  diskBytes: number;
}

/** The systeminformation calls used, injectable for tests. */
export interface HardwareSource {
  osInfo(): Promise<{
    distro: string;
    release: string;
    codename: string;
    kernel: string;
    arch: string;
  }>;
  cpu(): Promise<{ manufacturer: string; brand: string; speed: number; cores: number }>;
  mem(): Promise<{ total: number }>;
  fsSize(): Promise<Array<{ mount: string; size: number }>>;
}

// The control plane's limits (control-plane/src/grpc/agent-messages.ts hardwareSchema).
/**
 * Text as the control plane takes it: one line, no control characters (it refuses them, since
 * PostgreSQL cannot store NUL), at most `max` characters.
 */
export const clip = (text: string, max: number) =>
  text
    // eslint-disable-next-line no-control-regex
    .replace(/[\s\u0000-\u001f\u007f]+/g, ' ')
    .trim()
    .slice(0, max);

/** systeminformation, its four modules only (see systeminformation-parts.d.ts). */
const systemInformation: HardwareSource = { osInfo, cpu, mem, fsSize };

export async function readHardware(
  source: HardwareSource = systemInformation,
): Promise<HardwareSummary> {
  const [os, cpu, mem, disks] = await Promise.all([
    source.osInfo(),
    source.cpu(),
    source.mem(),
    source.fsSize().catch(() => []),
  ]);
  const root = disks.find((d) => d.mount === '/');
  const osName = [os.distro, os.release].filter(Boolean).join(' ');
  return {
    os: clip(os.codename ? `${osName} (${os.codename})` : osName, 64),
    osRelease: clip(os.kernel, 64),
    arch: clip(os.arch, 32),
    cpuCores: Math.max(1, cpu.cores),
    cpuModel: clip([cpu.manufacturer, cpu.brand].filter(Boolean).join(' '), 128),
    cpuGhz: Math.min(20, Math.max(0, Number(cpu.speed) || 0)),
    ramBytes: mem.total,
    diskBytes: root?.size ?? 0,
  };
}

/** The wire shape: 64-bit integers travel as decimal strings. */
export function toProtoHardware(hardware: HardwareSummary): ProtoHardwareSummary {
  return {
    ...hardware,
    ramBytes: String(Math.trunc(hardware.ramBytes)),
    diskBytes: String(Math.trunc(hardware.diskBytes)),
  };
}
