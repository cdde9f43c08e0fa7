import type { NdpiFlow } from './ndpi.support';

/** One measured transport: its flows as nDPI classified them. */
export interface LookRow {
  transport: string;
  flows: NdpiFlow[];
}

/**
 * The Markdown table docs/security.md#what-dpi-sees shows: per transport, each distinct
 * (protocol, TLS version, risks, score) with the number of flows that had it.
 */
export function lookTable(rows: readonly LookRow[]): string {
  const lines = [
    '| Transport | Flows | Detected protocol | TLS | SNI | Risks | Risk score |',
    '| --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const row of rows) {
    const groups = new Map<string, { flow: NdpiFlow; count: number }>();
    for (const flow of row.flows) {
      const key = JSON.stringify([
        flow.protocol,
        flow.tlsVersion,
        flow.sni,
        flow.risks,
        flow.riskScore,
      ]);
      const group = groups.get(key);
      if (group) group.count += 1;
      else groups.set(key, { flow, count: 1 });
    }
    for (const { flow, count } of groups.values()) {
      lines.push(
        `| ${row.transport} | ${count} of ${row.flows.length} | ${flow.protocol} | ${flow.tlsVersion || '-'} | ` +
          `${flow.sni || '(none)'} | ${flow.risks.join(', ') || 'none'} | ${flow.riskScore} |`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}
