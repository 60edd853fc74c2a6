import { isIPv4, isIPv6 } from 'node:net';

/**
 * Bits of an IPv6 address that name one network: a home or a school gets a /56 (or a /48)
 * and every device in it picks addresses at will, so counting per /128 would let one person
 * take a fresh budget with every address. IPv4 addresses are counted one by one (a whole NAT
 * is one address already). The same prefix as express-rate-limit's default.
 */
export const IPV6_NETWORK_BITS = 56;

/**
 * The network a request comes from, as throttling counts it: the IPv4 address (also when
 * written IPv4-mapped, `::ffff:1.2.3.4`), or the IPv6 /56 (`2001:db8:1:2300::/56`).
 */
export function clientNetwork(ip: string): string {
  const address = ip.split('%')[0]!; // a zone (fe80::1%eth0) names an interface, not a network
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped && isIPv4(mapped[1]!)) return mapped[1]!;
  if (isIPv4(address) || !isIPv6(address)) return address;
  const groups = ipv6Groups(address);
  const kept = Array.from({ length: 8 }, (_, index) => {
    const bits = Math.max(0, Math.min(16, IPV6_NETWORK_BITS - index * 16));
    return groups[index]! & (bits === 0 ? 0 : (0xffff << (16 - bits)) & 0xffff);
  });
  return `${kept
    .slice(0, Math.ceil(IPV6_NETWORK_BITS / 16))
    .map((group) => group.toString(16))
    .join(':')}::/${IPV6_NETWORK_BITS}`;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a trailing IPv4 part split in two). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const parse = (part: string) => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const front = parse(head);
  const back = tail === undefined ? [] : parse(tail);
  return [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back];
}
