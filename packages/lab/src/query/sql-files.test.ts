import { describe, test, expect } from '@jest/globals';
import { listTemplates, PARAM_KINDS, renderTemplate } from '@loglake/athena-sql';
import { labTemplateData } from './lab-data';

// The lab's own namespaces (sql/snapshots/ belongs to the snapshots workflow and has its own renderer).
const labTemplates = listTemplates().filter((t) => /^(network|ref|enriched)\//.test(t.name));

describe('sql/ files', () => {
  test('every step of the issue has its file', () => {
    const names = labTemplates.map((t) => t.name);
    for (const step of [
      'network/time_travel_smoke',
      'network/snapshots_by_operation',
      'network/add_columns',
      'network/delete_scanner',
      'network/top_rejected_sources',
      'network/undo_by_timestamp',
      'ref/create_tables',
      'ref/merge_inventory',
      'ref/merge_duplicate_key',
      'enriched/join_as_of_now',
      'enriched/create_labelled',
      'enriched/backfill',
      'enriched/change_feed',
      'network/one_hour',
      'enriched/one_hour',
    ]) {
      expect(names).toContain(step);
    }
  });

  test.each(labTemplates.map((t) => [t.name, t] as const))(
    '%s renders to complete statements',
    (_name, template) => {
      const params = Object.fromEntries(template.params.map((p) => [p.name, PARAM_KINDS[p.kind].example]));
      const statements = renderTemplate(template, params, labTemplateData());
      expect(statements.length).toBeGreaterThan(0);
      for (const sql of statements) {
        expect(sql).not.toMatch(/\{\{|\{%|;\s*$/);
        expect(sql).toMatch(/^(SELECT|INSERT|MERGE|DELETE|ALTER|CREATE|WITH)\b/);
      }
    },
  );

  test('the enriched table is partitioned by hour(start_time)', () => {
    const create = labTemplates.find((t) => t.name === 'enriched/create_labelled');
    expect(create?.source).toMatch(/PARTITIONED BY \(hour\(start_time\)\)/);
  });
});
