// Trino's binary functions (https://trino.io/docs/current/functions/binary.html): encodings and hashes, DuckDB's
// under the same name where it has them.
import { BIGINT, VARCHAR } from '../analyzer/types';
import type { FunctionFamily } from './function';

export const BINARY_FUNCTIONS: FunctionFamily = {
  crc32: { returns: BIGINT },
  from_base32: {},
  from_base64: { returns: { k: 'varbinary' } },
  from_base64url: {},
  from_big_endian_32: {},
  from_big_endian_64: {},
  from_hex: { returns: { k: 'varbinary' } },
  from_ieee754_32: {},
  from_ieee754_64: {},
  hmac_md5: {},
  hmac_sha1: {},
  hmac_sha256: {},
  hmac_sha512: {},
  md5: { returns: { k: 'varbinary' } },
  murmur3: {},
  sha1: { returns: { k: 'varbinary' } },
  sha256: { returns: { k: 'varbinary' } },
  sha512: { returns: { k: 'varbinary' } },
  spooky_hash_v2_32: {},
  spooky_hash_v2_64: {},
  to_base32: {},
  to_base64: { returns: VARCHAR },
  to_base64url: {},
  to_big_endian_32: {},
  to_big_endian_64: {},
  to_hex: { returns: VARCHAR },
  to_ieee754_32: {},
  to_ieee754_64: {},
  xxhash64: {},
};
