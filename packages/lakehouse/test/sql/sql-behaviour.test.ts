// The Athena behaviour suite on the embedded engine: one warehouse, one table bucket, one namespace, steps in order.
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import type { Warehouse } from '../../src/contract';
import { testWarehouse, type TestWarehouse } from '../table/testing';
import { ATHENA_BEHAVIOUR_SUITE, runSuiteStep, type SuiteContext } from './athena-behaviour-suite';
import { createSqlEngine, type AthenaSqlEngine } from '../../src/sql/engine';

describe('Athena SQL behaviour suite (local engine)', () => {
  let testbed: TestWarehouse;
  let warehouse: Warehouse;
  let engine: AthenaSqlEngine;
  const ctx: SuiteContext = {
    catalog: 's3tablescatalog/suite-bucket',
    namespace: 'suite',
    values: {},
    bytes: {},
  };

  beforeAll(async () => {
    testbed = await testWarehouse();
    warehouse = testbed.warehouse;
    await warehouse.createTableBucket('suite-bucket');
    await warehouse.createNamespace('suite-bucket', 'suite');
    engine = createSqlEngine(warehouse);
  });

  afterAll(async () => {
    await testbed?.dispose();
  });

  for (const step of ATHENA_BEHAVIOUR_SUITE) {
    test(step.name, async () => {
      // Prepare: earlier steps; Act + Assess: the step's statement and expectations.
      await runSuiteStep(engine, step, ctx);
    });
  }
});
