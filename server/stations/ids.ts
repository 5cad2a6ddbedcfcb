// station identity: canonical UUIDs, the keyed hash the service stores instead of them,
// the public id derived from that hash. the lookup by that hash is the roster's (roster.ts status).
import { createHash, createHmac } from 'node:crypto';

/** bytes of the server secret (kept in --state, see store.ts) */
export const SECRET_BYTES = 32;

const CANONICAL = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const BARE = /^[0-9a-f]{32}$/;

/**
 * A UUID in canonical form (lower case, 8-4-4-4-12), or null when the text is not one.
 * Accepts either case, with or without the dashes. The nil and max UUIDs are refused:
 * they are placeholders left in unconfigured feeders, shared by many, so they identify nobody.
 */
export function canonicalUuid(text: string): string | null {
  if (text.length !== 36 && text.length !== 32) return null;
  const s = text.toLowerCase();
  let c: string;
  if (CANONICAL.test(s)) c = s;
  else if (BARE.test(s)) c = `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
  else return null;
  if (c === '00000000-0000-0000-0000-000000000000' || c === 'ffffffff-ffff-ffff-ffff-ffffffffffff') return null;
  return c;
}

const B32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** RFC 4648 base32, lower case, no padding; the first `chars` characters. */
export function base32(bytes: Buffer, chars: number): string {
  let out = '';
  let acc = 0;
  let bits = 0;
  for (const b of bytes) {
    acc = ((acc << 8) | b) & 0xffff;
    bits += 8;
    while (bits >= 5 && out.length < chars) {
      out += B32[(acc >> (bits - 5)) & 31];
      bits -= 5;
    }
    if (out.length >= chars) break;
  }
  // the last partial group, padded with zero bits
  if (bits > 0 && out.length < chars) out += B32[(acc << (5 - bits)) & 31];
  return out;
}

/** "st_" + 10 base32 characters = 50 bits: collisions stay unlikely below millions of stations */
export const PUBLIC_ID = /^st_[a-z2-7]{10}$/;

/**
 * The two one-way functions of a station's identity, keyed with the server secret.
 * key = HMAC-SHA256(secret, "contrail/station/v1\0" + uuid): what the service stores and looks up;
 * public id = "st_" + base32(SHA-256("contrail/public-id/v1\0" + key))[0..10].
 * UUIDs are random 122-bit values, so neither can be reversed; the secret also protects feeders
 * whose UUID is not random (hand-made, sequential) from a dictionary run against public ids.
 */
export class StationKeys {
  private readonly secret: Buffer;

  constructor(secret: Buffer) {
    if (secret.length < SECRET_BYTES)
      throw new Error(`station secret must be at least ${SECRET_BYTES} bytes; delete the broken key file in --state to make a new one`);
    this.secret = Buffer.from(secret);
  }

  /** The stored key of a canonical UUID (32 bytes). */
  key(uuid: string): Buffer {
    return createHmac('sha256', this.secret).update('contrail/station/v1\0').update(uuid).digest();
  }

  /** The public id of a stored key. */
  publicId(key: Buffer): string {
    return 'st_' + base32(createHash('sha256').update('contrail/public-id/v1\0').update(key).digest(), 10);
  }

  /** A short check value of the secret, saved beside the roster so a roster made with another secret is recognised. */
  fingerprint(): string {
    return base32(createHmac('sha256', this.secret).update('contrail/fingerprint/v1').digest(), 16);
  }
}

/** compares two stored keys (crypto.timingSafeEqual; tests count with their own) */
export type Equal = (a: Buffer, b: Buffer) => boolean;
