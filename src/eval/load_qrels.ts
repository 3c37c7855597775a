import { checkGrade, isRecord, malformed } from "./read_json.ts";

/** Relevance grades of chunk ids, by query id: `{qid: {chunkId: grade}}`. */
export type Qrels = Record<string, Record<string, number>>;

/** Checks parsed JSON against the qrels shape. */
export function parseQrels(data: unknown, path: string): Qrels {
  const fail = malformed("qrels", path);
  if (!isRecord(data)) fail("expected an object of {queryId: {chunkId: grade}}");
  const qrels: Qrels = {};
  for (const [qid, judged] of Object.entries(data as Record<string, unknown>)) {
    if (!isRecord(judged)) fail(`judgments of '${qid}' must be an object of {chunkId: grade}`);
    qrels[qid] = {};
    for (const [id, grade] of Object.entries(judged as Record<string, unknown>)) {
      qrels[qid][id] = checkGrade(grade, path, "qrels", `${qid}/${id}`);
    }
  }
  return qrels;
}
