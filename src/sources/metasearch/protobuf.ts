/**
 * The slice of the protobuf wire format the metasearch engine's URL parameters and tokens use
 * (flight `tfs` and price tokens, hotel `ts`, `qs`, page and property tokens): varints (as bigint,
 * entity ids and field 16 of `tfs` exceed 2^53) and length-delimited fields, plus base64 in both
 * alphabets. The upstream writes explicit zero / false values and empty sub-messages, so the
 * writer never drops "default" fields: what the caller writes is what goes on the wire.
 */

export type ProtoValue = { wire: 0; value: bigint } | { wire: 2; bytes: Uint8Array } | { wire: 1 | 5; bytes: Uint8Array };

export interface ProtoField {
  field: number;
  value: ProtoValue;
}

const textEncoder = new TextEncoder();
const textDecoder = new TextDecoder('utf-8', { fatal: true });

export class ProtoWriter {
  private readonly out: number[] = [];

  private varint(value: bigint): void {
    let v = value < 0n ? BigInt.asUintN(64, value) : value;
    do {
      let byte = Number(v & 0x7fn);
      v >>= 7n;
      if (v > 0n) byte |= 0x80;
      this.out.push(byte);
    } while (v > 0n);
  }

  private tag(field: number, wire: 0 | 2): void {
    this.varint(BigInt((field << 3) | wire));
  }

  uint(field: number, value: number | bigint): this {
    this.tag(field, 0);
    this.varint(BigInt(value));
    return this;
  }

  bytes(field: number, value: Uint8Array): this {
    this.tag(field, 2);
    this.varint(BigInt(value.length));
    for (const b of value) this.out.push(b);
    return this;
  }

  string(field: number, value: string): this {
    return this.bytes(field, textEncoder.encode(value));
  }

  /** A sub-message; an empty writer yields the explicit empty message (`tag 00`). */
  message(field: number, inner: ProtoWriter): this {
    return this.bytes(field, inner.finish());
  }

  /** Repeated varints in one length-delimited run (proto3 packed encoding). */
  packed(field: number, values: readonly number[]): this {
    const inner = new ProtoWriter();
    for (const v of values) inner.varint(BigInt(v));
    return this.bytes(field, inner.finish());
  }

  finish(): Uint8Array {
    return Uint8Array.from(this.out);
  }
}

export class ProtoDecodeError extends Error {}

function readVarint(buf: Uint8Array, pos: number): [bigint, number] {
  let result = 0n;
  let shift = 0n;
  for (;;) {
    if (pos >= buf.length) throw new ProtoDecodeError('truncated varint');
    const byte = buf[pos++]!;
    result |= BigInt(byte & 0x7f) << shift;
    if ((byte & 0x80) === 0) return [result, pos];
    shift += 7n;
    if (shift > 63n) throw new ProtoDecodeError('varint too long');
  }
}

/** Splits one message into its fields, in wire order; throws ProtoDecodeError on malformed input. */
export function decodeFields(buf: Uint8Array): ProtoField[] {
  const out: ProtoField[] = [];
  let pos = 0;
  while (pos < buf.length) {
    const [key, next] = readVarint(buf, pos);
    pos = next;
    const field = Number(key >> 3n);
    const wire = Number(key & 7n);
    if (field === 0) throw new ProtoDecodeError('field number 0');
    if (wire === 0) {
      const [value, after] = readVarint(buf, pos);
      pos = after;
      out.push({ field, value: { wire: 0, value } });
    } else if (wire === 2) {
      const [len, after] = readVarint(buf, pos);
      const end = after + Number(len);
      if (end > buf.length) throw new ProtoDecodeError('truncated length-delimited field');
      out.push({ field, value: { wire: 2, bytes: buf.subarray(after, end) } });
      pos = end;
    } else if (wire === 1 || wire === 5) {
      const end = pos + (wire === 1 ? 8 : 4);
      if (end > buf.length) throw new ProtoDecodeError('truncated fixed field');
      out.push({ field, value: { wire, bytes: buf.subarray(pos, end) } });
      pos = end;
    } else {
      throw new ProtoDecodeError(`unsupported wire type ${wire}`);
    }
  }
  return out;
}

/** Reads a packed run of varints. */
export function decodePacked(bytes: Uint8Array): bigint[] {
  const out: bigint[] = [];
  let pos = 0;
  while (pos < bytes.length) {
    const [v, next] = readVarint(bytes, pos);
    out.push(v);
    pos = next;
  }
  return out;
}

export function fieldString(v: ProtoValue): string {
  if (v.wire !== 2) throw new ProtoDecodeError('expected a length-delimited field');
  try {
    return textDecoder.decode(v.bytes);
  } catch {
    throw new ProtoDecodeError('invalid utf-8 string');
  }
}

/** A varint read as a signed 64-bit integer. */
export function fieldInt(v: ProtoValue): number {
  if (v.wire !== 0) throw new ProtoDecodeError('expected a varint field');
  return Number(BigInt.asIntN(64, v.value));
}

export function fieldBytes(v: ProtoValue): Uint8Array {
  if (v.wire !== 2) throw new ProtoDecodeError('expected a length-delimited field');
  return v.bytes;
}

/** Accepts standard and URL-safe base64, with or without padding. */
export function base64ToBytes(s: string): Uint8Array {
  const std = s.replace(/-/g, '+').replace(/_/g, '/');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(std)) throw new ProtoDecodeError('not base64');
  return new Uint8Array(Buffer.from(std, 'base64'));
}

/** Standard base64, or with `urlSafe` the unpadded base64url form URLs carry. */
export function bytesToBase64(bytes: Uint8Array, urlSafe: boolean): string {
  const b64 = Buffer.from(bytes).toString('base64');
  return urlSafe ? b64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '') : b64;
}
