/**
 * The walk stage: lists a project's text files for chunking, honouring
 * ignore files, globs, the default excludes, size limits and symlink rules.
 * @module
 */
export { walkTree } from "./walk_tree.ts";
export { type PathFilter, pathFilter } from "./path_filter.ts";
export type { SkippedFile, SkipReason, WalkOptions, WalkResult } from "./walk_tree.ts";
export { DEFAULT_EXCLUDES } from "./default_excludes.ts";
export { IGNORE_FILES } from "./ignore_rules.ts";
export { detectLanguage, languageId } from "./detect_language.ts";
export { decodeText } from "./read_source.ts";
export { rawNamesSync } from "./raw_names.ts";
