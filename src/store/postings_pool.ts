/**
 * Every postings list of a full-text index under construction, in one pool
 * of chained 16-byte blocks. A 100k-chunk index has ~400k lists (every
 * identifier is a term), most holding one posting: as one typed array each
 * they cost ~700 bytes apiece, more than the passages themselves.
 * Lists are encoded as `PostingsWriter` encodes them.
 */
const BLOCK = 16;

export class PostingsPool {
  #bytes = new Uint8Array(BLOCK * 1024);
  #next = new Int32Array(1024).fill(-1);
  #blocks = 0;
  /** Per list: first and last block, bytes used in the last, last row added, total bytes. */
  #head = new Int32Array(1024);
  #tail = new Int32Array(1024);
  #fill = new Uint8Array(1024);
  #last = new Float64Array(1024);
  #size = new Int32Array(1024);
  #lists = 0;

  /** Starts an empty list; returns its id. */
  list(): number {
    if (this.#lists === this.#head.length) {
      this.#head = grow(this.#head);
      this.#tail = grow(this.#tail);
      this.#fill = grow(this.#fill);
      this.#last = grow(this.#last);
      this.#size = grow(this.#size);
    }
    const id = this.#lists++;
    this.#head[id] = this.#tail[id] = this.#block();
    this.#fill[id] = this.#last[id] = this.#size[id] = 0;
    return id;
  }

  /** Appends row `row` (not below the last) with `count` occurrences to list `id`. */
  add(id: number, row: number, count: number): void {
    this.#varint(id, (row - this.#last[id]!) * 2 + (count > 1 ? 1 : 0));
    if (count > 1) this.#varint(id, count - 2);
    this.#last[id] = row;
  }

  /** Encoded bytes of list `id`. */
  size(id: number): number {
    return this.#size[id]!;
  }

  /** Copies list `id` into `out` at `at`; returns where it ended. */
  copy(id: number, out: Uint8Array, at: number): number {
    let left = this.#size[id]!;
    for (let block = this.#head[id]!; left > 0; block = this.#next[block]!) {
      const n = Math.min(BLOCK, left);
      out.set(this.#bytes.subarray(block * BLOCK, block * BLOCK + n), at);
      at += n;
      left -= n;
    }
    return at;
  }

  #varint(id: number, value: number): void {
    while (value >= 0x80) {
      this.#push(id, (value & 0x7f) | 0x80);
      value = Math.floor(value / 128);
    }
    this.#push(id, value);
  }

  #push(id: number, byte: number): void {
    if (this.#fill[id] === BLOCK) {
      const block = this.#block();
      this.#next[this.#tail[id]!] = block;
      this.#tail[id] = block;
      this.#fill[id] = 0;
    }
    this.#bytes[this.#tail[id]! * BLOCK + this.#fill[id]!++] = byte;
    this.#size[id]!++;
  }

  #block(): number {
    if (this.#blocks === this.#next.length) {
      this.#next = grow(this.#next, -1);
      this.#bytes = grow(this.#bytes);
    }
    return this.#blocks++;
  }
}

/** A copy of `array` twice as long, the new half set to `fill`. */
function grow<T extends Int32Array | Uint8Array | Float64Array>(array: T, fill = 0): T {
  const grown = new (array.constructor as new (n: number) => T)(array.length * 2);
  grown.set(array);
  if (fill !== 0) grown.fill(fill, array.length);
  return grown;
}
