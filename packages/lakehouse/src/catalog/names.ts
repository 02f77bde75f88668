// S3 Tables naming rules, enforced so local names are valid on AWS too.
import { InvalidNameError } from '../errors';

const BUCKET = /^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/;
const NAMESPACE = /^[a-z0-9][a-z0-9_]{0,253}[a-z0-9]$|^[a-z0-9]$/;
const TABLE = /^[a-z0-9][a-z0-9_]{0,253}[a-z0-9]$|^[a-z0-9]$/;

export function checkBucketName(name: string): void {
  if (
    !BUCKET.test(name) ||
    name.startsWith('aws') ||
    name.startsWith('xn--') ||
    name.endsWith('--table-s3')
  ) {
    throw new InvalidNameError(
      `Invalid table bucket name '${name}': use 3-63 lowercase letters, digits and hyphens, starting and ending with a letter or digit.`,
      { value: name },
    );
  }
}

export function checkNamespaceName(name: string): void {
  if (!NAMESPACE.test(name) || name.startsWith('aws')) {
    throw new InvalidNameError(
      `Invalid namespace name '${name}': use 1-255 lowercase letters, digits and underscores, starting and ending with a letter or digit.`,
      { value: name },
    );
  }
}

export function checkTableName(name: string): void {
  if (!TABLE.test(name)) {
    throw new InvalidNameError(
      `Invalid table name '${name}': use 1-255 lowercase letters, digits and underscores, starting and ending with a letter or digit.`,
      { value: name },
    );
  }
}
