import net from 'node:net';

/** IPv4 networks of the service's own side: unspecified, private, CGNAT, loopback, link-local, benchmarking, multicast, reserved. */
const PRIVATE_V4 = new net.BlockList();
for (const [prefix, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  PRIVATE_V4.addSubnet(prefix, bits, 'ipv4');

/**
 * IPv6 networks of the same kinds: unspecified, loopback, unique local, link-local,
 * site-local, multicast, and the local-use NAT64 prefix (whose IPv4 sits where the
 * operator's prefix length puts it, so it cannot be read out).
 */
const PRIVATE_V6 = new net.BlockList();
for (const [prefix, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
  ['64:ff9b:1::', 48],
] as const)
  PRIVATE_V6.addSubnet(prefix, bits, 'ipv6');

/** The 16 bytes of an IPv6 address in any textual form (compressed, with a dotted IPv4 tail, with a zone); null when it is not one. */
function ipv6Bytes(text: string): Uint8Array | null {
  const address = text.replace(/%.*$/, '');
  if (!net.isIPv6(address)) return null;
  const groups = (part: string): number[] =>
    part === ''
      ? []
      : part.split(':').flatMap((g) => {
          if (!g.includes('.')) return [parseInt(g, 16)];
          const [a, b, c, d] = g.split('.').map(Number) as [number, number, number, number];
          return [(a << 8) | b, (c << 8) | d];
        });
  const [left, right] = address.split('::') as [string, string | undefined];
  const head = groups(left);
  const tail = right === undefined ? [] : groups(right);
  const all = [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
  const bytes = new Uint8Array(16);
  all.forEach((g, i) => {
    bytes[2 * i] = g >> 8;
    bytes[2 * i + 1] = g & 0xff;
  });
  return bytes;
}

const startsWith = (bytes: Uint8Array, prefix: number[]) => prefix.every((b, i) => bytes[i] === b);
const dotted = (bytes: Uint8Array, at: number) => `${bytes[at]}.${bytes[at + 1]}.${bytes[at + 2]}.${bytes[at + 3]}`;

/**
 * The IPv4 address an IPv6 address stands for, by the embeddings a packet to it would
 * follow to an IPv4 host: IPv4-mapped (::ffff:0:0/96), IPv4-translated (::ffff:0:0:0/96),
 * IPv4-compatible (::/96), NAT64's well-known prefix (64:ff9b::/96) and 6to4
 * (2002::/16, the IPv4 in bits 16–47). Null for other addresses.
 */
function embeddedIpv4(bytes: Uint8Array): string | null {
  const zeros = (n: number) => new Array<number>(n).fill(0);
  if (startsWith(bytes, [...zeros(10), 0xff, 0xff])) return dotted(bytes, 12);
  if (startsWith(bytes, [...zeros(8), 0xff, 0xff, 0, 0])) return dotted(bytes, 12);
  if (startsWith(bytes, zeros(12))) return dotted(bytes, 12);
  if (startsWith(bytes, [0, 0x64, 0xff, 0x9b, ...zeros(8)])) return dotted(bytes, 12);
  if (startsWith(bytes, [0x20, 0x02])) return dotted(bytes, 2);
  return null;
}

/**
 * Whether an address is on the service's own side (private, loopback, link-local, CGNAT,
 * multicast...), in any spelling: an IPv6 address that carries an IPv4 one is judged by
 * that IPv4 too. Anything that is not an IP address counts as private.
 */
export function isPrivateAddress(address: string): boolean {
  if (net.isIPv4(address)) return PRIVATE_V4.check(address, 'ipv4');
  const bytes = ipv6Bytes(address);
  if (!bytes) return true;
  const v4 = embeddedIpv4(bytes);
  if (v4 !== null && PRIVATE_V4.check(v4, 'ipv4')) return true;
  const canonical = Array.from({ length: 8 }, (_, i) => ((bytes[2 * i]! << 8) | bytes[2 * i + 1]!).toString(16)).join(':');
  return PRIVATE_V6.check(canonical, 'ipv6');
}
