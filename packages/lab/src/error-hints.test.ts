import { describe, test, expect } from '@jest/globals';
import { describeError, errorHint } from './error-hints';

const named = (name: string, message = 'whatever the SDK says') =>
  Object.assign(new Error(message), { name });

describe('hints for other packages’ errors, by their type', () => {
  test('no credentials: how to give them (profile, SSO, environment), whatever the message says', () => {
    for (const error of [
      named('CredentialsProviderError'),
      named('CredentialsProviderError', 'Could not load credentials from any providers'),
    ]) {
      const hint = errorHint(error) ?? '';
      expect(hint).toMatch(/^No AWS credentials were found\./);
      expect(hint).toMatch(/export AWS_PROFILE=<name>/);
      expect(hint).toMatch(/aws sso login --profile <name>/);
      expect(hint).toMatch(/AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY/);
    }
    expect(errorHint(named('ExpiredTokenException'))).toMatch(/did not accept the credentials/);
  });

  test('a message that mentions credentials is not enough: only the type counts', () => {
    expect(
      errorHint(named('ValidationException', 'Could not load credentials from any providers')),
    ).toBeUndefined();
    expect(describeError(named('ValidationException', 'bad'))).toBe('ValidationException: bad');
    expect(describeError(named('CredentialsProviderError', 'none'))).toMatch(
      /^CredentialsProviderError: none — No AWS credentials/,
    );
  });
});
