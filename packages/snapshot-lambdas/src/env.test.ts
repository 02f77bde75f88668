import { describe, test, expect } from '@jest/globals';
import { handlerEnvironment, readHandlerConfig } from './env';
import { SnapshotConfigError } from './errors';
import { testConfig } from '../test/fixtures';

describe('readHandlerConfig', () => {
  test('round-trips the environment the stack writes', () => {
    const config = testConfig();
    expect(readHandlerConfig(handlerEnvironment(config))).toEqual(config);
  });

  test.each([
    ['SNAPSHOT_BUCKET', 'Bad_Bucket'],
    ['SNAPSHOT_DATABASE', 'db; drop'],
    ['ATHENA_WORKGROUP', 'wg with spaces'],
    ['QUERY_TIMEOUT_SECONDS', 'soon'],
    ['SNAPSHOT_DEFINITIONS', '[{"name":"x"}]'],
    ['SNAPSHOT_DEFINITIONS', 'not json'],
  ])('%s=%p fails fast, naming the variable', (name, value) => {
    const env = { ...handlerEnvironment(testConfig()), [name]: value };
    expect(() => readHandlerConfig(env)).toThrow(SnapshotConfigError);
    expect(() => readHandlerConfig(env)).toThrow(name);
  });
});
