// Murmur3 x86 32-bit (seed 0), the hash Iceberg's bucket transform is defined on, and the per-type byte
// encodings the spec hashes (longs little-endian, decimals as minimal big-endian two's complement...).
import { parseType } from './types';
import { decimalBytes, type Literal } from './values';

export function murmur3x86(bytes: Uint8Array, seed = 0): number {
  const c1 = 0xcc9e2d51;
  const c2 = 0x1b873593;
  let h = seed | 0;
  const blocks = bytes.length >>> 2;
  for (let i = 0; i < blocks; i++) {
    const o = i * 4;
    let k = bytes[o]! | (bytes[o + 1]! << 8) | (bytes[o + 2]! << 16) | (bytes[o + 3]! << 24) | 0;
    k = Math.imul(k, c1);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, c2);
    h ^= k;
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  }
  const tail = blocks * 4;
  const rest = bytes.length & 3;
  if (rest > 0) {
    let k = 0;
    if (rest === 3) k ^= bytes[tail + 2]! << 16;
    if (rest >= 2) k ^= bytes[tail + 1]! << 8;
    k ^= bytes[tail]!;
    k = Math.imul(k, c1);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, c2);
    h ^= k;
  }
  h ^= bytes.length;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h | 0;
}

function longBytes(value: bigint): Uint8Array {
  const b = Buffer.alloc(8);
  b.writeBigInt64LE(BigInt.asIntN(64, value));
  return b;
}

/** The spec's hash of a value of `type` (ints and dates hash as longs, so int 34 and long 34 agree). */
export function icebergHash(type: string, literal: Literal): number {
  const parsed = parseType(type);
  switch (parsed.kind) {
    case 'int':
    case 'date':
      return murmur3x86(longBytes(BigInt(literal as number)));
    case 'long':
    case 'time':
    case 'timestamp':
    case 'timestamptz':
      return murmur3x86(longBytes(literal as bigint));
    case 'decimal':
      return murmur3x86(decimalBytes(literal as bigint));
    case 'string':
      return murmur3x86(Buffer.from(literal as string, 'utf8'));
    case 'uuid':
      return murmur3x86(Buffer.from((literal as string).replaceAll('-', ''), 'hex'));
    case 'binary':
      return murmur3x86(literal as Uint8Array);
    default:
      throw new Error(`type ${type} cannot be bucketed`);
  }
}

export function bucketOf(type: string, literal: Literal, buckets: number): number {
  return (icebergHash(type, literal) & 0x7fffffff) % buckets;
}
