/** Broken internal links (§6.1): tolerated by the spec, so they are notes. */
import type { Finding } from "./finding.ts";
import { findLinks, resolveLink } from "./find_links.ts";
import type { BundleDocument } from "./load_bundle.ts";
import { ruleFinding } from "./okf_rules.ts";

/** Longest target a message quotes: a link may be a whole file on one line. */
export const MAX_QUOTED_TARGET = 200;

/** Broken links reported per file; past this a single note gives the rest's count. */
export const MAX_LINK_NOTES = 50;

/**
 * Notes for links in `doc` whose target is not a file or directory in
 * `existing`. `fixWrites` tells whether `--fix` writes an index: a missing
 * one it creates is said to be so.
 */
export function checkLinks(
  doc: BundleDocument,
  existing: ReadonlySet<string>,
  fixWrites: (path: string) => boolean,
): Finding[] {
  const findings: Finding[] = [];
  let more = 0;
  for (const link of findLinks(doc.body, doc.bodyLine)) {
    const resolved = resolveLink(link.target, doc.path);
    if (resolved === undefined || (resolved !== null && existing.has(resolved))) continue;
    if (findings.length === MAX_LINK_NOTES) {
      more++;
      continue;
    }
    const message = resolved === null
      ? `Link '${shown(link.target)}' points outside the bundle`
      : isIndex(resolved) && fixWrites(resolved)
      ? `Link target '${
        shown(link.target)
      }' is not in the bundle yet; run 'wayfinder validate --fix' to create it`
      : `Link target '${shown(link.target)}' is not in the bundle (yet)`;
    findings.push(ruleFinding("okf/broken-link", message, doc.path, link.line, link.column));
  }
  if (more > 0) {
    const last = findings[findings.length - 1]!.location;
    const message = `${more} more broken links in this file are not listed`;
    findings.push(ruleFinding("okf/broken-link", message, doc.path, last.line, last.column + 1));
  }
  return findings;
}

function isIndex(path: string): boolean {
  return path === "index.md" || path.endsWith("/index.md");
}

/** The target, cut at {@link MAX_QUOTED_TARGET} characters (never inside a surrogate pair). */
function shown(target: string): string {
  if (target.length <= MAX_QUOTED_TARGET) return target;
  const cut = /[\uD800-\uDBFF]$/.test(target.slice(0, MAX_QUOTED_TARGET))
    ? MAX_QUOTED_TARGET - 1
    : MAX_QUOTED_TARGET;
  return `${target.slice(0, cut)}…`;
}
