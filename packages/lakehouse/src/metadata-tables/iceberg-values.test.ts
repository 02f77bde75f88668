import { describe, test, expect } from '@jest/globals';
import {
  decodeSingleValue,
  humanString,
  partitionHumanString,
  javaLocalDateTime,
  sqlReadyValue,
} from './iceberg-values';

function le64(n: bigint): Uint8Array {
  const b = Buffer.alloc(8);
  b.writeBigInt64LE(n);
  return new Uint8Array(b);
}

describe('Iceberg single values and human strings', () => {
  test('decodes little-endian bounds per type', () => {
    const int = Buffer.alloc(4);
    int.writeInt32LE(-7);
    expect(decodeSingleValue('int', new Uint8Array(int))).toBe(-7);
    expect(decodeSingleValue('timestamp', le64(1_764_410_400_123_456n))).toBe(1_764_410_400_123_456n);
    expect(decodeSingleValue('string', new TextEncoder().encode('10.0.1.5'))).toBe('10.0.1.5');
    // decimal(10,2) −1.50 = unscaled −150, big-endian two's complement
    expect(decodeSingleValue('decimal(10,2)', new Uint8Array([0xff, 0x6a]))).toBe('-1.50');
  });

  test('timestamps print as Java LocalDateTime does (seconds only when non-zero)', () => {
    expect(javaLocalDateTime(0n)).toBe('1970-01-01T00:00');
    expect(javaLocalDateTime(1_500_000n)).toBe('1970-01-01T00:00:01.500');
    expect(javaLocalDateTime(-1n)).toBe('1969-12-31T23:59:59.999999');
    expect(humanString('timestamptz', 3_600_000_000n)).toBe('1970-01-01T01:00Z');
    expect(humanString('double', 2)).toBe('2.0');
    expect(sqlReadyValue('timestamp', -1n)).toBe('1969-12-31 23:59:59.999999');
    expect(sqlReadyValue('timestamptz', 0n)).toBe('1970-01-01 00:00:00.000000+00');
    expect(sqlReadyValue('date', -1)).toBe('1969-12-31');
  });

  test('partition values print per transform (hour as yyyy-MM-dd-HH)', () => {
    const hour = Math.floor(Date.UTC(2026, 10, 29, 18) / 3_600_000);
    expect(partitionHumanString('hour', 'timestamp', hour)).toBe('2026-11-29-18');
    expect(partitionHumanString('hour', 'timestamp', -1)).toBe('1969-12-31-23');
    expect(partitionHumanString('day', 'timestamp', 1)).toBe('1970-01-02');
    expect(partitionHumanString('month', 'date', 13)).toBe('1971-02');
    expect(partitionHumanString('year', 'date', 56)).toBe('2026');
    expect(partitionHumanString('bucket[16]', 'string', 3)).toBe('3');
    expect(partitionHumanString('identity', 'string', 'REJECT')).toBe('REJECT');
  });
});
