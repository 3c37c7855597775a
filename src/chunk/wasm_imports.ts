/**
 * Renames functions a WebAssembly module imports, leaving every other byte
 * as it is. A grammar built against a C library the tree-sitter runtime does
 * not fully export (the Bash grammar's scanner calls `isalpha`, the runtime
 * exports only `iswalpha`) fails at the first call; pointing the import at
 * the runtime's equivalent makes it parse.
 */

/** Imports the tree-sitter runtime lacks, and what it exports that does the same job. */
export const RUNTIME_ALIASES: Readonly<Record<string, string>> = {
  // Same answer for every character a scanner asks about (ASCII letters).
  isalpha: "iswalpha",
};

const IMPORT_SECTION = 2;

/** Reads an unsigned LEB128 number at `at`; returns it and the offset after it. */
function readU32(bytes: Uint8Array, at: number): [number, number] {
  let value = 0;
  for (let shift = 0; shift < 35; shift += 7) {
    if (at >= bytes.length) throw new Error("truncated number");
    const byte = bytes[at++];
    value += (byte & 0x7f) * 2 ** shift;
    if ((byte & 0x80) === 0) return [value, at];
  }
  throw new Error("number too long");
}

function writeU32(value: number): number[] {
  const out: number[] = [];
  do {
    let byte = value & 0x7f;
    value = Math.floor(value / 128);
    if (value > 0) byte |= 0x80;
    out.push(byte);
  } while (value > 0);
  return out;
}

/** The offset after an import's description (its kind byte at `at`). */
function skipDescription(bytes: Uint8Array, at: number): number {
  const kind = bytes[at++];
  const limits = (from: number) => {
    const flags = bytes[from++];
    let [, next] = readU32(bytes, from);
    if (flags & 1) [, next] = readU32(bytes, next);
    return next;
  };
  switch (kind) {
    case 0: // function: its type index
      return readU32(bytes, at)[1];
    case 1: // table: element type, limits
      return limits(at + 1);
    case 2: // memory: limits
      return limits(at);
    case 3: // global: value type, mutability
      return at + 2;
    case 4: // tag: attribute, type index
      return readU32(bytes, at + 1)[1];
    default:
      throw new Error(`unknown import kind ${kind}`);
  }
}

/** The import section rewritten with renamed function imports, or undefined when none is renamed. */
function renameInSection(
  bytes: Uint8Array,
  start: number,
  end: number,
  renames: Readonly<Record<string, string>>,
): number[] | undefined {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  const out: number[] = [];
  let [count, at] = readU32(bytes, start);
  out.push(...writeU32(count));
  let renamed = false;
  while (count-- > 0) {
    const [moduleLength, moduleAt] = readU32(bytes, at);
    const [fieldLength, fieldAt] = readU32(bytes, moduleAt + moduleLength);
    const field = decoder.decode(bytes.subarray(fieldAt, fieldAt + fieldLength));
    const describedAt = fieldAt + fieldLength;
    const next = skipDescription(bytes, describedAt);
    out.push(...bytes.subarray(at, moduleAt + moduleLength));
    const alias = bytes[describedAt] === 0 && Object.hasOwn(renames, field)
      ? renames[field]
      : undefined;
    const name = alias === undefined ? bytes.subarray(fieldAt, describedAt) : encoder.encode(alias);
    renamed ||= alias !== undefined;
    out.push(...writeU32(name.length), ...name, ...bytes.subarray(describedAt, next));
    at = next;
  }
  if (at !== end) throw new Error("import section has trailing bytes");
  return renamed ? out : undefined;
}

/**
 * The module with its function imports renamed (`{ isalpha: "iswalpha" }`);
 * the same bytes when it imports none of them.
 * @throws {Error} when the bytes are not a WebAssembly module
 */
export function renameImports(
  bytes: Uint8Array,
  renames: Readonly<Record<string, string>> = RUNTIME_ALIASES,
): Uint8Array {
  const magic = [0x00, 0x61, 0x73, 0x6d];
  if (bytes.length < 8 || magic.some((byte, i) => bytes[i] !== byte)) {
    throw new Error("not a WebAssembly module");
  }
  let at = 8;
  while (at < bytes.length) {
    const id = bytes[at];
    const [size, payload] = readU32(bytes, at + 1);
    const end = payload + size;
    if (end > bytes.length) throw new Error("truncated section");
    if (id === IMPORT_SECTION) {
      const section = renameInSection(bytes, payload, end, renames);
      if (!section) return bytes;
      const head = [IMPORT_SECTION, ...writeU32(section.length)];
      const out = new Uint8Array(at + head.length + section.length + bytes.length - end);
      out.set(bytes.subarray(0, at));
      out.set(head, at);
      out.set(section, at + head.length);
      out.set(bytes.subarray(end), at + head.length + section.length);
      return out;
    }
    at = end;
  }
  return bytes;
}
