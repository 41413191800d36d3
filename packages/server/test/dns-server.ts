import { createSocket } from 'node:dgram';
import type { AddressInfo } from 'node:net';

/**
 * A tiny authoritative DNS server over UDP for tests: answers TXT questions from `records`
 * (name → strings), NXDOMAIN for names it does not know, and nothing else. Enough for
 * node:dns's Resolver pointed at it (COMPANY_SSO_DNS_SERVER).
 */
export async function startDnsServer(records: Map<string, string[]>) {
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
    const values = type === 16 ? records.get(name) : undefined;
    const known = records.has(name);
    const header = Buffer.alloc(12);
    message.copy(header, 0, 0, 2);
    header.writeUInt16BE(0x8400 | (message.readUInt16BE(2) & 0x0100) | (known ? 0 : 3), 2);
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(values?.length ?? 0, 6);
    const answers = (values ?? []).map((value) => {
      const text = Buffer.from(value, 'utf8');
      const rdata = Buffer.concat([Buffer.from([text.length]), text]);
      const fixed = Buffer.alloc(12);
      fixed.writeUInt16BE(0xc00c, 0);
      fixed.writeUInt16BE(16, 2);
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
