import { describe, expect, test } from '@jest/globals';
import { LoglakeError } from './index';

class ExampleError extends LoglakeError {
  override name = 'ExampleError';
}

describe('the one error shape', () => {
  test('message, cause and value; recognised by class; the subclass names itself', () => {
    // Prepare
    const cause = new TypeError('inner');

    // Act
    const error = new ExampleError('bad name "x": use letters only', { cause, value: 'x' });

    // Assess
    expect(error).toBeInstanceOf(ExampleError);
    expect(error).toBeInstanceOf(LoglakeError);
    expect(error).toBeInstanceOf(Error);
    expect([error.name, error.message, error.cause, error.value]).toEqual([
      'ExampleError',
      'bad name "x": use letters only',
      cause,
      'x',
    ]);
    expect('cause' in new ExampleError('no cause')).toBe(false);
  });
});
