// Wire helpers of the CloudWatch operations: timestamps as the JSON protocol sends them (epoch seconds), and the
// NextToken paging CloudWatch's list operations share.
import { AwsServiceError } from '../errors';
import { invalidValue, missingParameter } from './alarm-definition';

export const seconds = (ms: number) => ms / 1000;

export function time(value: unknown, name: string, required = true): number | undefined {
  if (value === undefined || value === null) {
    if (required) throw missingParameter(name);
    return undefined;
  }
  // The SDK sends epoch seconds; a date string is accepted too.
  const ms = typeof value === 'number' ? value * 1000 : Date.parse(String(value));
  if (!Number.isFinite(ms)) throw invalidValue(`The parameter ${name} must be a timestamp.`);
  return ms;
}

export function pageOf<T>(items: T[], token: unknown, max: number): { page: T[]; next?: string } {
  const start = token === undefined || token === null ? 0 : Number.parseInt(String(token), 10);
  if (!Number.isInteger(start) || start < 0 || start > items.length)
    throw new AwsServiceError('InvalidNextToken', 400, 'The service returned an error: invalid NextToken.');
  const page = items.slice(start, start + max);
  return { page, ...(start + max < items.length ? { next: String(start + max) } : {}) };
}
