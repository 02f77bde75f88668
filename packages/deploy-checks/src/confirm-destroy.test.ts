import { describe, expect, test } from '@jest/globals';
import { CONFIRM_DESTROY_ENV, confirmDestroy } from './confirm-destroy';
import { DestroyNotConfirmedError } from './errors';

describe('confirmDestroy', () => {
  const consequence = 'it deletes s3tablescatalog for every table bucket of the region.';

  test('refused unless the variable names the unit', () => {
    for (const env of [{}, { [CONFIRM_DESTROY_ENV]: '' }, { [CONFIRM_DESTROY_ENV]: 'table-bucket' }]) {
      expect(() => confirmDestroy(env, 's3tables-integration', consequence)).toThrow(
        DestroyNotConfirmedError,
      );
    }
    expect(() => confirmDestroy({}, 's3tables-integration', consequence)).toThrow(
      /pnpm lab destroy --include-regional.*Nothing of this unit was destroyed/,
    );
  });

  test('goes ahead when named, alone or in a list', () => {
    expect(
      confirmDestroy({ [CONFIRM_DESTROY_ENV]: 's3tables-integration' }, 's3tables-integration', consequence),
    ).toMatch(/confirmed/);
    expect(
      confirmDestroy(
        { [CONFIRM_DESTROY_ENV]: 'other, s3tables-integration' },
        's3tables-integration',
        consequence,
      ),
    ).toMatch(/confirmed/);
  });
});
