/**
 * How a link or resource target reads from inside a bundle, in the terms
 * Profile rules test: external, invalid (escapes the bundle), a scope
 * descriptor (prose such as "all queries in project X"), or internal and
 * then resolved to a concept, resolved to another file, or unresolved.
 */
import { resolveLink } from "../conformance/mod.ts";

/** The classification of one target. */
export interface TargetFacts {
  target: string;
  resolution:
    | "external"
    | "invalid"
    | "descriptor"
    | "resolved-concept"
    | "resolved-asset"
    | "unresolved";
  internal: boolean;
  bundle_relative: boolean;
}

/** What a bundle holds, for resolving targets. */
export interface BundleIndex {
  /** Bundle-relative paths of files and folders. */
  existing: ReadonlySet<string>;
  /** Bundle-relative paths of folders. */
  dirs: ReadonlySet<string>;
  /** Bundle-relative paths of concept documents. */
  concepts: ReadonlySet<string>;
}

/** Classifies `target` as written in the document at `fromPath`. */
export function classifyTarget(target: string, fromPath: string, index: BundleIndex): TargetFacts {
  const base = { target, internal: false, bundle_relative: false };
  if (/\s/.test(target.trim()) || target.trim() === "") {
    return { ...base, resolution: "descriptor" };
  }
  const resolved = resolveLink(target, fromPath);
  if (resolved === undefined) return { ...base, resolution: "external" };
  if (resolved === null) return { ...base, resolution: "invalid" };
  const internal = { target, internal: true, bundle_relative: target.startsWith("/") };
  if (index.concepts.has(resolved)) return { ...internal, resolution: "resolved-concept" };
  if (index.existing.has(resolved)) return { ...internal, resolution: "resolved-asset" };
  return { ...internal, resolution: "unresolved" };
}
