import { describe, test, expect, beforeAll, afterAll } from '@jest/globals';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UnknownNameError } from '../errors';
import { findTemplate } from './find-template';

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'lab-sql-'));
  mkdirSync(join(dir, 'network'));
  mkdirSync(join(dir, 'ref'));
  writeFileSync(join(dir, 'network', 'count.sql'), 'SELECT count(*) FROM network.vpc_flow_logs;\n');
  writeFileSync(join(dir, 'ref', 'count.sql'), 'SELECT count(*) FROM ref.host_inventory;\n');
  writeFileSync(join(dir, 'ref', 'inventory.sql'), 'SELECT * FROM ref.host_inventory;\n');
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('findTemplate', () => {
  test('by namespace/name, or by a bare name that is unique', () => {
    expect(findTemplate('ref/count', dir).name).toBe('ref/count');
    expect(findTemplate('inventory', dir).name).toBe('ref/inventory');
  });

  test('an ambiguous bare name lists the candidates', () => {
    expect(() => findTemplate('count', dir)).toThrow(/ambiguous: use one of network\/count, ref\/count/);
  });

  test('an unknown name lists the valid ones, with the nearest', () => {
    expect(() => findTemplate('nope', dir)).toThrow(UnknownNameError);
    expect(() => findTemplate('inventroy', dir)).toThrow(/No query named inventroy.*inventory/);
  });
});
