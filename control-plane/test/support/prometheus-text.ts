import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { REPO_ROOT } from '../../src/config/app-config';

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** A Prometheus text exposition: its samples, and each family's declared type. */
export interface Exposition {
  samples: Sample[];
  types: Map<string, string>;
}

export function parseExposition(text: string): Exposition {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  for (const line of text.split('\n')) {
    const type = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (type) types.set(type[1]!, type[2]!);
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not an exposition line: ${line}`);
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g))
      labels[pair[1]!] = pair[2]!;
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return { samples, types };
}

/** Every name a scrape can show: sample names, families, and a histogram's derived series. */
export function exportedNames({ samples, types }: Exposition): Set<string> {
  const names = new Set(samples.map((s) => s.name));
  for (const [family, type] of types) {
    names.add(family);
    if (type === 'histogram')
      for (const suffix of ['_bucket', '_sum', '_count']) names.add(family + suffix);
  }
  return names;
}

/** The samples of `name` whose labels include `labels`. */
export function find(
  exposition: Exposition,
  name: string,
  labels: Record<string, string> = {},
): Sample[] {
  return exposition.samples.filter(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
}

export function total(
  exposition: Exposition,
  name: string,
  labels: Record<string, string> = {},
): number {
  return find(exposition, name, labels).reduce((sum, s) => sum + s.value, 0);
}

export const MONITORING_DIR = join(REPO_ROOT, 'docker');

interface AlertRule {
  alert?: string;
  record?: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

export function alertRules(): AlertRule[] {
  const doc = parse(readFileSync(join(MONITORING_DIR, 'prometheus', 'alerts.yml'), 'utf8')) as {
    groups: Array<{ name: string; rules: AlertRule[] }>;
  };
  return doc.groups.flatMap((group) => group.rules);
}

interface DashboardPanel {
  title?: string;
  type: string;
  targets?: Array<{ expr: string }>;
  panels?: DashboardPanel[];
}

/** The dashboard's PromQL, one per target, with its panel's title. */
export function dashboardExpressions(): Array<{ panel: string; expr: string }> {
  const doc = JSON.parse(
    readFileSync(join(MONITORING_DIR, 'grafana', 'scn-dashboard.json'), 'utf8'),
  ) as { panels: DashboardPanel[] };
  const panels = doc.panels.flatMap((panel) => [panel, ...(panel.panels ?? [])]);
  return panels.flatMap((panel) =>
    (panel.targets ?? []).map((target) => ({ panel: panel.title ?? '', expr: target.expr })),
  );
}

/** Grafana's variables replaced by what Prometheus itself would accept. */
export function withoutGrafanaVariables(expr: string): string {
  return expr.replaceAll('$__rate_interval', '5m').replaceAll('$instance', '.*');
}

/**
 * The metric names an expression or annotation uses: ours (scn_), Node.js's and the process's
 * (prom-client's default metrics). `up` is Prometheus's own and is not looked for.
 */
export function metricNamesIn(text: string): string[] {
  return [...new Set(text.match(/\b(?:scn|nodejs|process)_[a-z0-9_]+\b/g) ?? [])];
}
