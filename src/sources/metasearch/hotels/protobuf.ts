/**
 * The slice of the protobuf wire format the hotel `ts` parameter and property tokens use:
 * varints (bigint, entity ids exceed 2^53) and length-delimited fields, plus URL-safe base64.
 * The upstream writes explicit zero / false values and empty sub-messages, so the writer
 * never drops "default" fields: what the caller writes is what goes on the wire.
 */

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

  /** Repeated scalars in one length-delimited run (proto3 packed encoding). */
  packed(field: number, values: readonly number[]): this {
    const inner = new ProtoWriter();
    for (const v of values) inner.varint(BigInt(v));
    return this.bytes(field, inner.finish());
  }

  finish(): Uint8Array {
    return Uint8Array.from(this.out);
  }
}

export type ProtoField =
  | { field: number; wire: 0; value: bigint }
  | { field: number; wire: 2; bytes: Uint8Array };

function readVarint(buf: Uint8Array, pos: number): [bigint, number] {
  let result = 0n;
  let shift = 0n;
  for (let i = pos; i < buf.length; i++) {
    const byte = buf[i];
    result |= BigInt(byte & 0x7f) << shift;
    if ((byte & 0x80) === 0) return [result, i + 1];
    shift += 7n;
    if (shift > 70n) break;
  }
  throw new Error('protobuf: truncated varint');
}

/** Reads one message level; fixed32/64 wire types do not occur in these messages and are refused. */
export function readFields(buf: Uint8Array): ProtoField[] {
  const fields: ProtoField[] = [];
  let pos = 0;
  while (pos < buf.length) {
    const [key, afterKey] = readVarint(buf, pos);
    const field = Number(key >> 3n);
    const wire = Number(key & 7n);
    if (field === 0) throw new Error('protobuf: field number 0');
    if (wire === 0) {
      const [value, next] = readVarint(buf, afterKey);
      fields.push({ field, wire: 0, value });
      pos = next;
    } else if (wire === 2) {
      const [len, start] = readVarint(buf, afterKey);
      const end = start + Number(len);
      if (end > buf.length) throw new Error('protobuf: length past end');
      fields.push({ field, wire: 2, bytes: buf.subarray(start, end) });
      pos = end;
    } else {
      throw new Error(`protobuf: unsupported wire type ${wire}`);
    }
  }
  return fields;
}

export function readPacked(buf: Uint8Array): number[] {
  const values: number[] = [];
  let pos = 0;
  while (pos < buf.length) {
    const [v, next] = readVarint(buf, pos);
    values.push(Number(v));
    pos = next;
  }
  return values;
}

export function utf8(bytes: Uint8Array): string {
  return textDecoder.decode(bytes);
}

export function toBase64Url(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Accepts URL-safe or standard alphabet, with or without padding. */
export function fromBase64Url(text: string): Uint8Array {
  if (!/^[A-Za-z0-9_\-+/]*={0,2}$/.test(text)) throw new Error('base64: invalid characters');
  return new Uint8Array(Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64'));
}
