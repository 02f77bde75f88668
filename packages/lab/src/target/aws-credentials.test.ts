import { describe, expect, test } from '@jest/globals';
import { TargetNotReadyError } from '../errors';
import { requireCredentialsFrom } from './aws-credentials';

describe('requireCredentialsFrom', () => {
  test("a chain that finds nothing is refused as TargetNotReadyError, the chain's own error kept as its cause", async () => {
    // Prepare
    const none = Object.assign(new Error('Could not load credentials from any providers'), {
      name: 'CredentialsProviderError',
    });

    // Act
    const refused = await requireCredentialsFrom(async () => {
      throw none;
    }).catch((error: unknown) => error);

    // Assess
    expect(refused).toBeInstanceOf(TargetNotReadyError);
    expect((refused as TargetNotReadyError).cause).toBe(none);
    expect((refused as TargetNotReadyError).message).toMatch(/^--target aws needs AWS credentials/);
  });

  test('a chain that gives credentials passes', async () => {
    await expect(
      requireCredentialsFrom(async () => ({ accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'x' })),
    ).resolves.toBeUndefined();
  });
});
