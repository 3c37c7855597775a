/**
 * Typed arrays for the builders of a generation's files: a column of 100k
 * rows costs its bytes, not a JavaScript array's slots, and a file is
 * written as pieces rather than copied into one array first.
 */
type Typed = Uint8Array | Int32Array | Uint32Array | Float64Array;

/** An append-only list of numbers; `array` is replaced as it grows, so read it after a push. */
export class TypedList<T extends Typed> {
  array: T;
  length = 0;

  constructor(make: new (n: number) => T, capacity = 1024) {
    this.array = new make(capacity);
  }

  push(value: number): void {
    if (this.length === this.array.length) this.reserve(1);
    this.array[this.length++] = value;
  }

  /** Makes room for `count` more values. */
  reserve(count: number): void {
    if (this.length + count <= this.array.length) return;
    const grown = new (this.array.constructor as new (n: number) => T)(
      Math.max(2 * this.array.length, this.length + count),
    );
    grown.set(this.values());
    this.array = grown;
  }

  /** Extends the list to `length` values, the new ones 0. */
  extend(length: number): void {
    if (length <= this.length) return;
    this.reserve(length - this.length);
    this.array.fill(0, this.length, length);
    this.length = length;
  }

  /** The values pushed so far: a view, valid until the next push. */
  values(): T {
    return this.array.subarray(0, this.length) as T;
  }
}

/** `parts` joined into one array. */
export function concatBytes(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
