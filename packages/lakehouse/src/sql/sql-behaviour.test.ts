// The Athena behaviour suite on the embedded engine: one warehouse, one table bucket, one namespace, steps in order.
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openWarehouse } from '../catalog/warehouse';
import type { Warehouse } from '../contract';
import { ATHENA_BEHAVIOUR_SUITE, runSuiteStep, type SuiteContext } from './athena-behaviour-suite';
import { createSqlEngine, type AthenaSqlEngine } from './engine';

describe('Athena SQL behaviour suite (local engine)', () => {
  let dir: string;
  let warehouse: Warehouse;
  let engine: AthenaSqlEngine;
  const ctx: SuiteContext = {
    catalog: 's3tablescatalog/suite-bucket',
    namespace: 'suite',
    values: {},
    bytes: {},
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'loglake-sql-suite-'));
    warehouse = await openWarehouse(dir);
    await warehouse.createTableBucket('suite-bucket');
    await warehouse.createNamespace('suite-bucket', 'suite');
    engine = createSqlEngine(warehouse);
  });

  afterAll(async () => {
    await warehouse?.close();
    await rm(dir, { recursive: true, force: true });
  });

  for (const step of ATHENA_BEHAVIOUR_SUITE) {
    test(step.name, async () => {
      // Prepare: earlier steps; Act + Assess: the step's statement and expectations.
      await runSuiteStep(engine, step, ctx);
    });
  }
});
