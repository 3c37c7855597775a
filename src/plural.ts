/** `1 file`, `2 files`; `many` for a noun that does not just take an s (`1 query`, `2 queries`). */
export function plural(n: number, noun: string, many = `${noun}s`): string {
  return `${n} ${n === 1 ? noun : many}`;
}
