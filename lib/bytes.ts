// byte arrays that cross threads: a Uint8Array arrives where a Buffer was sent (structured clone
// keeps no Buffer), and text that crosses as bytes must own its whole ArrayBuffer to be transferred.

/** The same bytes as a Buffer, without copying (a Buffer comes back as it is). */
export const asBuffer = (u: Uint8Array): Buffer => (Buffer.isBuffer(u) ? u : Buffer.from(u.buffer, u.byteOffset, u.byteLength));

/** A string's UTF-8 bytes in a buffer of their own (transferable: not a slice of Node's pool). */
export function ownUtf8(text: string): Uint8Array {
  const out = new Uint8Array(Buffer.byteLength(text));
  asBuffer(out).write(text, 'utf8');
  return out;
}
