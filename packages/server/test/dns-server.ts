import { createSocket } from 'node:dgram';
import { Resolver } from 'node:dns/promises';
import { isIP, type AddressInfo } from 'node:net';

const txtData = (value: string) => {
  const text = Buffer.from(value, 'utf8');
  return Buffer.concat([Buffer.from([text.length]), text]);
};

/** An A record's 4 bytes or an AAAA record's 16. */
const addressData = (address: string) => {
  if (isIP(address) === 4) return Buffer.from(address.split('.').map(Number));
  const [head = '', tail = ''] = address.split('::');
  const groups = (part: string) => (part ? part.split(':') : []);
  const all = [...groups(head), ...Array<string>(8 - groups(head).length - groups(tail).length).fill('0'), ...groups(tail)];
  return Buffer.concat(all.map((group) => Buffer.from(group.padStart(4, '0'), 'hex')));
};

/**
 * A tiny authoritative DNS server over UDP for tests: answers TXT questions from `records`
 * (name → strings), A and AAAA questions from `addresses` (name → IPv4 and IPv6 addresses,
 * asked again at each question so a test can change the answer), NXDOMAIN for names it does
 * not know, and nothing else. Enough for node:dns's Resolver pointed at it (COMPANY_SSO_DNS_SERVER).
 */
export async function startDnsServer(records: Map<string, string[]>, addresses: (name: string) => string[] | undefined = () => undefined) {
  const socket = createSocket('udp4');
  let queries = 0;
  socket.on('message', (message, remote) => {
    queries++;
    if (message.length < 12) return;
    // The question: labels up to the zero byte, then type and class.
    const labels: string[] = [];
    let offset = 12;
    while (offset < message.length && message[offset] !== 0) {
      const length = message[offset]!;
      labels.push(message.subarray(offset + 1, offset + 1 + length).toString('ascii'));
      offset += length + 1;
    }
    const questionEnd = offset + 5;
    const type = message.readUInt16BE(offset + 1);
    const name = labels.join('.').toLowerCase();
    const listed = addresses(name);
    const values = type === 16 ? records.get(name) : type === 1 ? listed?.filter((address) => isIP(address) === 4) : type === 28 ? listed?.filter((address) => isIP(address) === 6) : undefined;
    const known = records.has(name) || listed !== undefined;
    const header = Buffer.alloc(12);
    message.copy(header, 0, 0, 2);
    header.writeUInt16BE(0x8400 | (message.readUInt16BE(2) & 0x0100) | (known ? 0 : 3), 2);
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(values?.length ?? 0, 6);
    const answers = (values ?? []).map((value) => {
      const rdata = type === 16 ? txtData(value) : addressData(value);
      const fixed = Buffer.alloc(12);
      fixed.writeUInt16BE(0xc00c, 0);
      fixed.writeUInt16BE(type, 2);
      fixed.writeUInt16BE(1, 4);
      fixed.writeUInt32BE(60, 6);
      fixed.writeUInt16BE(rdata.length, 10);
      return Buffer.concat([fixed, rdata]);
    });
    socket.send(Buffer.concat([header, message.subarray(12, questionEnd), ...answers]), remote.port, remote.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return {
    server: `127.0.0.1:${(socket.address() as AddressInfo).port}`,
    get queries() {
      return queries;
    },
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}

/** Resolves names to their IPv4 addresses through the DNS server at `server` (startDnsServer's), as the egress guard's `resolve` takes it. */
export function ipv4Resolver(server: string): (host: string) => Promise<Array<{ address: string; family: number }>> {
  const resolver = new Resolver();
  resolver.setServers([server]);
  return async (host) => (await resolver.resolve4(host)).map((address) => ({ address, family: 4 }));
}
