/**
 * Every postings list of a full-text index under construction, in one pool
 * of chained 16-byte blocks. A 100k-chunk index has ~400k lists (every
 * identifier is a term), most holding one posting: as one typed array each
 * they cost ~700 bytes apiece, more than the passages themselves.
 * Blocks live in fixed pages, so growing the pool copies nothing and frees
 * nothing, and each list costs 16 bytes of bookkeeping.
 * Lists are encoded as `PostingsWriter` encodes them.
 */
import { TypedList } from "./growable.ts";

const BLOCK = 16;
const PAGE_BITS = 14;
const PAGE = 1 << PAGE_BITS;

export class PostingsPool {
  /** Block b's bytes are page `b >> PAGE_BITS` of `#bytes`; the next block of its list likewise. */
  #bytes: Uint8Array[] = [];
  #next: Uint32Array[] = [];
  #blocks = 0;
  /** Per list, four numbers: first block, last block, last row added, bytes written. */
  #lists = new TypedList(Uint32Array);

  /** Starts an empty list; returns its id. */
  list(): number {
    const block = this.#block();
    this.#lists.push(block);
    this.#lists.push(block);
    this.#lists.push(0);
    this.#lists.push(0);
    return this.#lists.length / 4 - 1;
  }

  /** Appends row `row` (not below the last) with `count` occurrences to list `id`. */
  add(id: number, row: number, count: number): void {
    const lists = this.#lists.array;
    this.#varint(id, (row - lists[4 * id + 2]!) * 2 + (count > 1 ? 1 : 0));
    if (count > 1) this.#varint(id, count - 2);
    lists[4 * id + 2] = row;
  }

  /** Encoded bytes of list `id`. */
  size(id: number): number {
    return this.#lists.array[4 * id + 3]!;
  }

  /** Copies list `id` into `out` at `at`; returns where it ended. */
  copy(id: number, out: Uint8Array, at: number): number {
    let left = this.size(id);
    for (let block = this.#lists.array[4 * id]!; left > 0; block = this.#nextOf(block)) {
      const n = Math.min(BLOCK, left);
      const start = (block & (PAGE - 1)) * BLOCK;
      out.set(this.#bytes[block >>> PAGE_BITS]!.subarray(start, start + n), at);
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
    const size = this.#lists.array[4 * id + 3]!;
    if (size > 0 && size % BLOCK === 0) {
      const block = this.#block();
      const tail = this.#lists.array[4 * id + 1]!;
      this.#next[tail >>> PAGE_BITS]![tail & (PAGE - 1)] = block;
      this.#lists.array[4 * id + 1] = block;
    }
    const tail = this.#lists.array[4 * id + 1]!;
    this.#bytes[tail >>> PAGE_BITS]![(tail & (PAGE - 1)) * BLOCK + size % BLOCK] = byte;
    this.#lists.array[4 * id + 3] = size + 1;
  }

  #nextOf(block: number): number {
    return this.#next[block >>> PAGE_BITS]![block & (PAGE - 1)]!;
  }

  #block(): number {
    if (this.#blocks === this.#bytes.length * PAGE) {
      this.#bytes.push(new Uint8Array(PAGE * BLOCK));
      this.#next.push(new Uint32Array(PAGE));
    }
    return this.#blocks++;
  }
}
