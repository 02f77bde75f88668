// Trino's IPADDRESS, implemented once: a value is 16 bytes, IPv4 addresses stored IPv4-mapped (::ffff:a.b.c.d),
// so one byte order sorts both families as Trino does. Parsing follows Guava's InetAddresses.forString (what
// Trino's cast uses: dotted quads without leading zeros, IPv6 with `::` and an embedded IPv4 tail); printing
// follows InetAddresses.toAddrString (IPv4-mapped values as dotted quads, IPv6 lower-case with the longest run
// of zero groups written `::`, RFC 5952). contains(cidr, address) is Trino's IP address contains().

/** Trino's texts (IpAddressOperators, IpAddressFunctions). */
export const ipCastError = (text: string): string => `Cannot cast value to IPADDRESS: ${text}`;
export const cidrError = (text: string): string => `Invalid CIDR: ${text}`;

function parseIpv4(text: string): number[] | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  const bytes: number[] = [];
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part) || (part.length > 1 && part.startsWith('0'))) return null;
    const value = Number(part);
    if (value > 255) return null;
    bytes.push(value);
  }
  return bytes;
}

function parseIpv6(text: string): number[] | null {
  let head = text;
  let tailV4: number[] = [];
  const lastColon = text.lastIndexOf(':');
  if (text.slice(lastColon + 1).includes('.')) {
    // An IPv4 tail stands for the last two groups: `::ffff:1.2.3.4`, `::1.2.3.4`.
    const v4 = parseIpv4(text.slice(lastColon + 1));
    if (!v4) return null;
    tailV4 = v4;
    const prefix = text.slice(0, lastColon + 1);
    head = prefix.endsWith('::') ? prefix : text.slice(0, lastColon);
  }
  const groupsWanted = tailV4.length ? 6 : 8;
  const halves = head.split('::');
  if (halves.length > 2) return null;
  const parse = (part: string): number[] | null => {
    if (part === '') return [];
    const groups = part.split(':');
    const out: number[] = [];
    for (const g of groups) {
      if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return null;
      out.push(parseInt(g, 16));
    }
    return out;
  };
  const left = parse(halves[0] as string);
  const right = halves.length === 2 ? parse(halves[1] as string) : [];
  if (!left || !right) return null;
  let groups: number[];
  if (halves.length === 2) {
    const missing = groupsWanted - left.length - right.length;
    if (missing < 1) return null;
    groups = [...left, ...Array<number>(missing).fill(0), ...right];
  } else {
    if (left.length !== groupsWanted) return null;
    groups = left;
  }
  const bytes: number[] = [];
  for (const g of groups) bytes.push(g >> 8, g & 0xff);
  return [...bytes, ...tailV4];
}

/** The 16-byte form of an address, or null when `text` is not an IPv4 or IPv6 address. */
export function parseIpAddress(text: string): Uint8Array | null {
  if (text.includes(':')) {
    const bytes = parseIpv6(text);
    return bytes && bytes.length === 16 ? Uint8Array.from(bytes) : null;
  }
  const v4 = parseIpv4(text);
  return v4 ? Uint8Array.from([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, ...v4]) : null;
}

const isMappedIpv4 = (bytes: Uint8Array): boolean =>
  bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff;

/** Trino's text of a 16-byte address. */
export function formatIpAddress(bytes: Uint8Array): string {
  if (bytes.length !== 16) throw new RangeError(`an IPADDRESS has 16 bytes, got ${bytes.length}`);
  if (isMappedIpv4(bytes)) return Array.from(bytes.slice(12)).join('.');
  const groups: number[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((bytes[i] as number) << 8) | (bytes[i + 1] as number));
  // The longest run of two or more zero groups (the first one on a tie) becomes `::` (RFC 5952 §4.2).
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) {
      bestStart = i;
      bestLength = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart < 0) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`;
}

/** contains('10.0.0.0/8', address): whether the address lies in the CIDR network. Throws on a bad CIDR. */
export function cidrContains(cidr: string, address: Uint8Array): boolean {
  const slash = cidr.indexOf('/');
  const prefixText = slash < 0 ? '' : cidr.slice(slash + 1);
  const network = slash < 0 ? null : parseIpAddress(cidr.slice(0, slash));
  if (!network || !/^\d{1,3}$/.test(prefixText)) throw new RangeError(cidrError(cidr));
  const v4 = !cidr.slice(0, slash).includes(':');
  const prefix = Number(prefixText) + (v4 ? 96 : 0);
  if (prefix > 128) throw new RangeError(cidrError(cidr));
  for (let bit = 0; bit < prefix; bit++) {
    const byte = bit >> 3;
    const mask = 0x80 >> (bit & 7);
    if (((network[byte] as number) & mask) !== ((address[byte] as number) & mask)) return false;
  }
  return true;
}
