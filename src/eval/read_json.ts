import { readFile } from "node:fs/promises";
import { oneLine, WayfinderError } from "../error.ts";

/** Reads a UTF-8 file; `what` names it in the error ("queries", "qrels", …). */
export async function readText(path: string, what: string): Promise<string> {
  try {
    // A byte-order mark is no JSON, but editors write one.
    return (await readFile(path, "utf8")).replace(/^\uFEFF/, "");
  } catch (e) {
    const reason = (e as { code?: string }).code === "ENOENT"
      ? "no such file"
      : oneLine(String((e as Error).message ?? e));
    throw new WayfinderError("io", `Cannot read ${what}: '${path}': ${reason}`, { cause: e });
  }
}

/** Parses JSON text, naming the file when it is malformed. */
export function parseJson(text: string, path: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new WayfinderError(
      "input",
      `Cannot read ${what}: '${path}' is not JSON (${oneLine((e as Error).message)})`,
      { cause: e },
    );
  }
}

/** Reads and parses a JSON file. */
export async function readJson(path: string, what: string): Promise<unknown> {
  return parseJson(await readText(path, what), path, what);
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Throws the "input" error for a malformed `what` file: "Cannot read qrels: 'path': reason". */
export function malformed(what: string, path: string): (reason: string) => never {
  return (reason) => {
    throw new WayfinderError("input", `Cannot read ${what}: '${path}': ${reason}`);
  };
}

/** Checks a relevance grade: a finite number ≥ 0. */
export function checkGrade(value: unknown, path: string, what: string, where: string): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
    malformed(what, path)(`grade of ${where} must be a number ≥ 0, got ${JSON.stringify(value)}`);
  }
  return value as number;
}
