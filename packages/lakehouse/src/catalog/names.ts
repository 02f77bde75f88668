// S3 Tables naming rules, enforced so local names are valid on AWS too.
import { InvalidNameError } from '../errors';

const BUCKET = /^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/;
const NAMESPACE = /^[a-z0-9][a-z0-9_]{0,253}[a-z0-9]$|^[a-z0-9]$/;
const TABLE = /^[a-z0-9][a-z0-9_]{0,253}[a-z0-9]$|^[a-z0-9]$/;

/** True for a name S3 Tables lets a table bucket have (so a lookup of any other name finds nothing). */
export function isBucketName(name: string): boolean {
  return (
    BUCKET.test(name) && !name.startsWith('aws') && !name.startsWith('xn--') && !name.endsWith('--table-s3')
  );
}

export function isNamespaceName(name: string): boolean {
  return NAMESPACE.test(name) && !name.startsWith('aws');
}

export function isTableName(name: string): boolean {
  return TABLE.test(name);
}

export function checkBucketName(name: string): void {
  if (!isBucketName(name)) {
    throw new InvalidNameError(
      `Invalid table bucket name '${name}': use 3-63 lowercase letters, digits and hyphens, starting and ending with a letter or digit.`,
      { value: name },
    );
  }
}

export function checkNamespaceName(name: string): void {
  if (!isNamespaceName(name)) {
    throw new InvalidNameError(
      `Invalid namespace name '${name}': use 1-255 lowercase letters, digits and underscores, starting and ending with a letter or digit.`,
      { value: name },
    );
  }
}

export function checkTableName(name: string): void {
  if (!isTableName(name)) {
    throw new InvalidNameError(
      `Invalid table name '${name}': use 1-255 lowercase letters, digits and underscores, starting and ending with a letter or digit.`,
      { value: name },
    );
  }
}
