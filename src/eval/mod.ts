/**
 * Eval: scores retrieval runs against judged queries (Recall@k, nDCG@k, MRR)
 * and gates a report against a baseline. It is handed search functions and
 * never builds an index itself.
 *
 * @module
 */
export { loadQueries, type Queries } from "./load_queries.ts";
export type { Qrels } from "./load_qrels.ts";
export type { SpanJudgment, SpanQrels } from "./load_span_qrels.ts";
export { type Judgments, loadJudgments } from "./load_judgments.ts";
export { loadGroups, type QueryGroups } from "./load_groups.ts";
export {
  type Annotations,
  inferCategory,
  isAnnotations,
  loadAnnotations,
  parseAnnotations,
} from "./load_annotations.ts";
export { loadReport } from "./load_report.ts";
export { validateEvalInput } from "./validate_eval_input.ts";
export type { EvalUnit, Metrics, QrelsMatch, QueryScore } from "./score_query.ts";
export {
  type EvalRun,
  type EvaluationInput,
  type GroupReport,
  type Report,
  runEvaluation,
  type RunReport,
} from "./run_evaluation.ts";
export {
  type JudgeableChunk,
  type UnmatchedJudgment,
  unmatchedJudgments,
} from "./unmatched_judgments.ts";
export {
  type BaselineReport,
  compareToBaseline,
  type GateOptions,
  type Regression,
} from "./compare_to_baseline.ts";
