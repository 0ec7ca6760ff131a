import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FileHandle } from 'node:fs/promises';

const deflateRaw = promisify(zlib.deflateRaw) as (buf: Buffer, opts: zlib.ZlibOptions) => Promise<Buffer>;

/** The end of a raw deflate stream: one empty final block (what zlib emits when finishing an empty input). */
const FINAL_EMPTY_BLOCK = zlib.deflateRawSync(Buffer.alloc(0));

const U32 = 0xffff_ffff;

interface Entry {
  name: Buffer;
  flags: number;
  crc: number;
  compressed: number;
  size: number;
  offset: number;
}

export class ZipTooLargeError extends Error {}

/**
 * A ZIP archive written front to back into a file, one entry after the other, without ever holding an
 * entry in memory: an entry's data is deflated chunk by chunk (each chunk on zlib's thread pool, ended
 * with a sync flush so the compressed chunks join into one valid deflate stream), its CRC and sizes
 * follow in a data descriptor, and the central directory is written at the end. Classic ZIP (no
 * ZIP64): an archive or entry beyond 4 GiB is refused with ZipTooLargeError.
 */
export class ZipWriter {
  private offset = 0;
  private entries: Entry[] = [];
  private open: Entry | null = null;
  private pending: Promise<void> = Promise.resolve();
  private readonly time: number;
  private readonly date: number;

  constructor(
    private fh: FileHandle,
    private level = 1,
  ) {
    const d = new Date();
    this.time = (d.getHours() << 11) | (d.getMinutes() << 5) | Math.floor(d.getSeconds() / 2);
    this.date = ((Math.max(d.getFullYear(), 1980) - 1980) << 9) | ((d.getMonth() + 1) << 5) | d.getDate();
  }

  private async raw(buf: Buffer) {
    if (this.offset + buf.length > U32) throw new ZipTooLargeError('The file would exceed 4 GiB, the limit of an XLSX file.');
    let done = 0;
    while (done < buf.length) {
      const { bytesWritten } = await this.fh.write(buf, done, buf.length - done);
      done += bytesWritten;
    }
    this.offset += buf.length;
  }

  private localHeader(e: Entry, sizesKnown: boolean) {
    const h = Buffer.alloc(30);
    h.writeUInt32LE(0x04034b50, 0);
    h.writeUInt16LE(20, 4);
    h.writeUInt16LE(e.flags, 6);
    h.writeUInt16LE(8, 8); // deflate
    h.writeUInt16LE(this.time, 10);
    h.writeUInt16LE(this.date, 12);
    h.writeUInt32LE(sizesKnown ? e.crc : 0, 14);
    h.writeUInt32LE(sizesKnown ? e.compressed : 0, 18);
    h.writeUInt32LE(sizesKnown ? e.size : 0, 22);
    h.writeUInt16LE(e.name.length, 26);
    h.writeUInt16LE(0, 28);
    return Buffer.concat([h, e.name]);
  }

  /** A small entry whose content is known whole. */
  async add(name: string, data: string | Buffer) {
    if (this.open) throw new Error('zip: an entry is still open');
    const buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    const body = await deflateRaw(buf, { level: this.level });
    const e: Entry = { name: Buffer.from(name, 'utf8'), flags: 0x0800, crc: zlib.crc32(buf), compressed: body.length, size: buf.length, offset: this.offset };
    await this.raw(this.localHeader(e, true));
    await this.raw(body);
    this.entries.push(e);
  }

  /** Starts a streamed entry: `write` its content in chunks, then `endEntry`. */
  async begin(name: string) {
    if (this.open) throw new Error('zip: an entry is still open');
    const e: Entry = { name: Buffer.from(name, 'utf8'), flags: 0x0808, crc: 0, compressed: 0, size: 0, offset: this.offset };
    await this.raw(this.localHeader(e, false));
    this.open = e;
  }

  /**
   * Adds a chunk to the open entry. Its deflate starts at once on zlib's thread pool and the call returns
   * when the chunk before it is on disk: the caller builds the next chunk while this one is compressed,
   * and at most two chunks are in memory.
   */
  async write(chunk: Buffer) {
    const e = this.open;
    if (!e) throw new Error('zip: no open entry');
    if (!chunk.length) return;
    if (e.size + chunk.length > U32) throw new ZipTooLargeError('The sheet would exceed 4 GiB, the limit of an XLSX file.');
    e.crc = zlib.crc32(chunk, e.crc);
    e.size += chunk.length;
    const before = this.pending;
    const deflated = deflateRaw(chunk, { level: this.level, finishFlush: zlib.constants.Z_SYNC_FLUSH });
    const mine = (async () => {
      const body = await deflated;
      await before;
      e.compressed += body.length;
      await this.raw(body);
    })();
    deflated.catch(() => {});
    mine.catch(() => {});
    this.pending = mine;
    await before;
  }

  /** Waits for every chunk written so far to be on disk (and throws its error, if any). */
  private async settle() {
    const p = this.pending;
    this.pending = Promise.resolve();
    await p;
  }

  async endEntry() {
    const e = this.open;
    if (!e) throw new Error('zip: no open entry');
    await this.settle();
    await this.raw(FINAL_EMPTY_BLOCK);
    e.compressed += FINAL_EMPTY_BLOCK.length;
    const d = Buffer.alloc(16);
    d.writeUInt32LE(0x08074b50, 0);
    d.writeUInt32LE(e.crc >>> 0, 4);
    d.writeUInt32LE(e.compressed, 8);
    d.writeUInt32LE(e.size, 12);
    await this.raw(d);
    this.entries.push(e);
    this.open = null;
  }

  /** Writes the central directory; the file is a complete archive after this. */
  async close() {
    if (this.open) throw new Error('zip: an entry is still open');
    const start = this.offset;
    const parts: Buffer[] = [];
    for (const e of this.entries) {
      const h = Buffer.alloc(46);
      h.writeUInt32LE(0x02014b50, 0);
      h.writeUInt16LE(20, 4);
      h.writeUInt16LE(20, 6);
      h.writeUInt16LE(e.flags, 8);
      h.writeUInt16LE(8, 10);
      h.writeUInt16LE(this.time, 12);
      h.writeUInt16LE(this.date, 14);
      h.writeUInt32LE(e.crc >>> 0, 16);
      h.writeUInt32LE(e.compressed, 20);
      h.writeUInt32LE(e.size, 24);
      h.writeUInt16LE(e.name.length, 28);
      // extra, comment, disk, internal attributes, external attributes: zero
      h.writeUInt32LE(e.offset, 42);
      parts.push(h, e.name);
    }
    const dir = Buffer.concat(parts);
    await this.raw(dir);
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(this.entries.length, 8);
    end.writeUInt16LE(this.entries.length, 10);
    end.writeUInt32LE(dir.length, 12);
    end.writeUInt32LE(start, 16);
    await this.raw(end);
  }
}
