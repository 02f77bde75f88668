// The conformance oracle's own decoder of single values (bounds, partition summaries; spec Appendix D), written
// apart from the engine's decodeBound so the invariants check the files against the spec, not against the engine.
// Lenient where writers differ: int-sized values for long columns and float-sized ones for doubles are widened.
import { formatDecimal } from '../../src/metadata/number-text';

export type SingleValue = boolean | number | bigint | string | Uint8Array | null;

function view(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Decodes a bound / partition-summary value (spec Appendix D, single-value serialization). */
export function decodeSingleValue(type: string, bytes: Uint8Array): SingleValue {
  const dv = view(bytes);
  if (type.startsWith('decimal')) {
    // Big-endian two's complement unscaled value.
    let unscaled = 0n;
    for (const b of bytes) unscaled = (unscaled << 8n) | BigInt(b);
    if (bytes.length > 0 && (bytes[0] as number) & 0x80) unscaled -= 1n << BigInt(bytes.length * 8);
    const scale = Number(/,\s*(\d+)\)/.exec(type)?.[1] ?? 0);
    return formatDecimal(unscaled, scale);
  }
  switch (type) {
    case 'boolean':
      return bytes[0] !== 0;
    case 'int':
    case 'date':
      return dv.getInt32(0, true);
    case 'long':
    case 'time':
    case 'timestamp':
    case 'timestamptz':
      // Some writers store int-sized values for long columns; widen them.
      return bytes.length === 4 ? BigInt(dv.getInt32(0, true)) : dv.getBigInt64(0, true);
    case 'float':
      return dv.getFloat32(0, true);
    case 'double':
      return bytes.length === 4 ? dv.getFloat32(0, true) : dv.getFloat64(0, true);
    case 'string':
      return new TextDecoder().decode(bytes);
    case 'uuid': {
      const hex = Buffer.from(bytes).toString('hex');
      return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
    }
    default:
      return new Uint8Array(bytes);
  }
}
