/** The date and time shapes OKF front matter uses (§5): plain dates and ISO 8601 instants. */

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME =
  /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|z|[+-]\d{2}:?\d{2})?$/;

/** How a value reads as a point in time. */
export type TimeShape = "date" | "instant" | "local-time" | "invalid";

/** Classifies `value`: a `YYYY-MM-DD` date, a date-time with offset, one without, or neither. */
export function timeShape(value: unknown): TimeShape {
  if (typeof value !== "string") return "invalid";
  if (isDate(value)) return "date";
  const m = DATE_TIME.exec(value);
  if (!m || !isDate(m[1]!) || Number(m[2]) > 23 || Number(m[3]) > 59 || Number(m[4] ?? 0) > 60) {
    return "invalid";
  }
  return m[5] ? "instant" : "local-time";
}

/** True for a real calendar date written `YYYY-MM-DD`. */
export function isDate(value: string): boolean {
  const m = DATE.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, d);
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}
