/**
 * OKF knowledge search: concepts as a knowledge index keeps them, their
 * passages (concept chunking), how a hit describes its concept, and the
 * knowledge policy (governing qualifiers) that filters and ranks hits.
 * @module
 */
export { type ConceptMeta, declaresOkf, isReservedFile, readConcept } from "./concept.ts";
export { chunkConcept, joinConcept, SUMMARY_TYPE } from "./chunk_concept.ts";
export { describeConcept, describeEntry } from "./describe_concept.ts";
export {
  asksAnything,
  checkGoverning,
  checkQualifiers,
  conceptOf,
  eligibility,
  type KnowledgePolicy,
  parseGoverning,
  type PolicyOrigins,
} from "./knowledge_policy.ts";
export {
  type BundleFiles,
  type ContextEntry,
  type KnowledgeAnswer,
  policyFilter,
  searchKnowledge,
} from "./knowledge_search.ts";
