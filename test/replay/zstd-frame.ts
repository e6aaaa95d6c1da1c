/**
 * Wraps bytes in a valid zstd frame made of raw (stored) blocks. Node 20 has no zstd encoder;
 * this lets the replay server serve any body with `content-encoding: zstd` to exercise decoding.
 */
const MAX_BLOCK = 128 * 1024;

export function zstdRawFrame(data: Buffer): Buffer {
  const header = Buffer.alloc(9);
  header.writeUInt32LE(0xfd2fb528, 0); // magic
  header[4] = 0xa0; // 4-byte content size, single segment, no checksum, no dictionary
  header.writeUInt32LE(data.length, 5);
  const parts: Buffer[] = [header];
  let offset = 0;
  do {
    const size = Math.min(MAX_BLOCK, data.length - offset);
    const last = offset + size >= data.length ? 1 : 0;
    const word = last | (0 << 1) | (size << 3); // Raw_Block
    parts.push(Buffer.from([word & 0xff, (word >>> 8) & 0xff, (word >>> 16) & 0xff]), data.subarray(offset, offset + size));
    offset += size;
  } while (offset < data.length);
  return Buffer.concat(parts);
}
