// the test and bench WebSocket client against a hand-written server: 7-bit, 16-bit and 64-bit
// lengths, a message in many small TCP writes, a fragmented message, ping -> masked pong, its own
// masked frames, and the close frame's code and reason.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { open } from './ws-client.ts';

/** one unmasked server frame */
function frame(opcode: number, payload: Buffer, fin = true): Buffer {
  const n = payload.length;
  const head =
    n < 126
      ? Buffer.from([n])
      : n < 65536
        ? Buffer.from([126, n >> 8, n & 0xff])
        : Buffer.concat([Buffer.from([127]), Buffer.from(new BigUint64Array([BigInt(n)]).buffer).reverse()]);
  return Buffer.concat([Buffer.from([(fin ? 0x80 : 0) | opcode]), head, payload]);
}

/** the client's frames as the server reads them: [opcode, unmasked payload] */
function readClientFrames(data: Buffer): [number, Buffer][] {
  const out: [number, Buffer][] = [];
  let at = 0;
  while (at + 6 <= data.length) {
    const opcode = data[at]! & 0x0f;
    assert.ok(data[at + 1]! & 0x80, 'a client frame is masked');
    const n = data[at + 1]! & 0x7f;
    assert.ok(n < 126, 'short frames only in this test');
    const mask = data.subarray(at + 2, at + 6);
    out.push([opcode, Buffer.from(data.subarray(at + 6, at + 6 + n).map((b, i) => b ^ mask[i & 3]!))]);
    at += 6 + n;
  }
  return out;
}

test('lengths of every size, a split message, fragments, ping, masked sends and the close reason', async () => {
  const fromClient: Buffer[] = [];
  let peer: Socket | null = null;
  const server = createServer();
  server.on('upgrade', (_req, socket: Socket) => {
    peer = socket;
    socket.on('data', (d) => fromClient.push(d));
    socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n');
    const big = Buffer.from(JSON.stringify({ type: 'big', pad: 'x'.repeat(70_000) }));
    const whole = Buffer.concat([
      frame(1, Buffer.from('{"type":"small"}')),
      frame(1, Buffer.from(JSON.stringify({ type: 'mid', pad: 'y'.repeat(300) }))),
      frame(1, big),
      frame(1, Buffer.from('{"type":'), false),
      frame(0, Buffer.from('"fragmented"}')),
      frame(9, Buffer.from('hi')),
    ]);
    // in 1 KiB writes: frames and headers cut anywhere
    for (let at = 0; at < whole.length; at += 1024) socket.write(whole.subarray(at, at + 1024));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  try {
    const c = await open(`http://127.0.0.1:${port}/`);
    assert.equal((await c.next()).type, 'small');
    assert.equal((await c.next()).pad.length, 300);
    assert.equal((await c.next()).pad.length, 70_000);
    assert.equal((await c.next()).type, 'fragmented');
    c.send('{"bbox":null}');
    c.send(Buffer.from([1, 2]), true);
    await new Promise((r) => setTimeout(r, 100));
    const frames = readClientFrames(Buffer.concat(fromClient));
    assert.deepEqual(
      frames.map(([op, p]) => [op, p.toString('latin1')]),
      [
        [10, 'hi'],
        [1, '{"bbox":null}'],
        [2, '\x01\x02'],
      ],
    );
    const reason = Buffer.from('too slow');
    peer!.end(frame(8, Buffer.concat([Buffer.from([0x03, 0xf0]), reason])));
    assert.deepEqual(await c.closed, { code: 1008, reason: 'too slow' });
  } finally {
    server.close();
  }
});
