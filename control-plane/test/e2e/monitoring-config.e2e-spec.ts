import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify, parse } from 'yaml';
import {
  alertRules,
  dashboardExpressions,
  metricNamesIn,
  MONITORING_DIR,
  withoutGrafanaVariables,
} from '../support/prometheus-text';
import { itNeeding } from '../support/requirements';

/**
 * docker/prometheus (scrape config, alert rules) and docker/grafana (the dashboard): parsed
 * here always, and checked by promtool where it is installed (CI: Debian's `prometheus`). That
 * their metrics exist is metrics.e2e-spec's check, against a running control plane.
 */
const PROMETHEUS_DIR = join(MONITORING_DIR, 'prometheus');

function promtool(...args: string[]): { status: number | null; output: string } {
  const run = spawnSync('promtool', args, { encoding: 'utf8', timeout: 30_000 });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

let work: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'scn-promtool-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the monitoring configuration in docker/', () => {
  it('should have every alert named, timed, graded and explained', () => {
    const rules = alertRules();
    expect(rules.map((rule) => rule.alert)).toEqual(
      expect.arrayContaining([
        'ScnReplicaDown',
        'ScnJobLate',
        'ScnHttp5xxRate',
        'ScnDepositBacklog',
      ]),
    );
    for (const rule of rules) {
      expect([rule.alert, typeof rule.expr, rule.expr.length > 0]).toEqual([
        rule.alert,
        'string',
        true,
      ]);
      expect([rule.alert, rule.labels?.severity]).toEqual([
        rule.alert,
        expect.stringMatching(/^(critical|warning)$/),
      ]);
      expect([rule.alert, Boolean(rule.annotations?.summary)]).toEqual([rule.alert, true]);
    }
    expect(new Set(rules.map((rule) => rule.alert)).size).toBe(rules.length);
  });

  it('should scrape /metrics with the token and load the alert rules', () => {
    const config = parse(readFileSync(join(PROMETHEUS_DIR, 'prometheus.yml'), 'utf8')) as {
      rule_files: string[];
      scrape_configs: Array<{
        job_name: string;
        metrics_path: string;
        authorization?: { type: string; credentials_file: string };
      }>;
    };
    expect(config.rule_files).toEqual(['alerts.yml']);
    expect(config.scrape_configs).toEqual([
      expect.objectContaining({
        job_name: 'scn-control-plane',
        metrics_path: '/metrics',
        authorization: { type: 'Bearer', credentials_file: 'metrics-token' },
      }),
    ]);
    // The alerts name this job: a renamed job would leave ScnReplicaDown watching nothing.
    const down = alertRules().find((rule) => rule.alert === 'ScnReplicaDown');
    expect(down?.expr).toContain('job="scn-control-plane"');
  });

  it('should give every dashboard panel a query of our metrics', () => {
    const expressions = dashboardExpressions();
    expect(expressions.length).toBeGreaterThan(20);
    const without = expressions.filter(
      ({ expr }) => metricNamesIn(expr).length === 0 && !expr.includes('up{'),
    );
    expect(without).toEqual([]);
  });

  itNeeding(['promtool'], 'promtool check of docker/prometheus')(
    'should pass promtool check config and check rules',
    () => {
      for (const file of ['prometheus.yml', 'alerts.yml'])
        copyFileSync(join(PROMETHEUS_DIR, file), join(work, file));
      writeFileSync(join(work, 'metrics-token'), 'a-token\n', { mode: 0o600 });
      const config = promtool('check', 'config', join(work, 'prometheus.yml'));
      expect([config.status, config.output]).toEqual([0, expect.stringContaining('SUCCESS')]);
      const rules = promtool('check', 'rules', join(PROMETHEUS_DIR, 'alerts.yml'));
      expect([rules.status, rules.output]).toEqual([0, expect.stringContaining('SUCCESS')]);
    },
  );

  itNeeding(['promtool'], "promtool check of the dashboard's PromQL")(
    "should have the dashboard's every expression parse as PromQL",
    () => {
      // As recording rules, promtool parses each one (Grafana's variables replaced).
      const file = join(work, 'dashboard-rules.yml');
      const rules = dashboardExpressions().map(({ expr }, i) => ({
        record: `scn:dashboard_${i}`,
        expr: withoutGrafanaVariables(expr),
      }));
      writeFileSync(file, stringify({ groups: [{ name: 'dashboard', rules }] }));
      const checked = promtool('check', 'rules', file);
      expect([checked.status, checked.output]).toEqual([
        0,
        expect.stringContaining(`SUCCESS: ${rules.length} rules found`),
      ]);
    },
  );
});
