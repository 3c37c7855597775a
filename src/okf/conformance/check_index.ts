/**
 * Structure of an `index.md` (§8, §12): no front matter except the root
 * index's `okf_version`, and a body of level-one sections whose content is
 * list entries that start with a link.
 */
import { type BodyLine, bodyLines, COMMENT, LINKED_ITEM, LIST_ITEM } from "./body_lines.ts";
import type { Finding } from "./finding.ts";
import type { BundleDocument } from "./load_bundle.ts";
import { ruleFinding } from "./okf_rules.ts";

/** OKF versions this validator understands. */
export const SUPPORTED_OKF_VERSIONS = ["0.1", "0.2"];

/** How a structure finding ends when `validate --fix` rewrites the whole index. */
export const REWRITE_HINT =
  "; run 'wayfinder validate --fix' to rewrite it from its folder's concepts";

/**
 * Findings for one index file; `isRoot` is true for the bundle root's index.
 * `fixWrites` tells whether `--fix` rewrites an index: asked only when there
 * is a finding, and then its messages say so.
 */
export function checkIndex(
  doc: BundleDocument,
  isRoot: boolean,
  fixWrites: (path: string) => boolean,
): Finding[] {
  const findings = [...checkIndexFrontMatter(doc, isRoot), ...checkIndexBody(doc)];
  // --fix keeps the root's front matter as written: it rewrites the body, and a sub-index whole.
  const rewritten = (f: Finding) =>
    f.id === "okf/index-structure" || (f.id === "okf/index-front-matter" && !isRoot);
  if (!findings.some(rewritten) || !fixWrites(doc.path)) return findings;
  return findings.map((f) => rewritten(f) ? { ...f, message: f.message + REWRITE_HINT } : f);
}

function checkIndexFrontMatter(doc: BundleDocument, isRoot: boolean): Finding[] {
  if (doc.block === "absent") return [];
  if (!isRoot) {
    return [
      ruleFinding(
        "okf/index-front-matter",
        "Only the bundle root's index.md may carry front matter",
        doc.path,
      ),
    ];
  }
  if (!doc.frontMatter) return [];
  const findings: Finding[] = [];
  for (const [key, at] of doc.frontMatter.keys) {
    if (key === "okf_version") continue;
    const message =
      `The root index's front matter may hold only \`okf_version\`, not \`${key}\`; remove \`${key}\``;
    findings.push(ruleFinding("okf/index-front-matter", message, doc.path, at.line, at.column));
  }
  const version = doc.frontMatter.data.okf_version;
  const at = doc.frontMatter.keys.get("okf_version");
  if (at && !(typeof version === "string" && SUPPORTED_OKF_VERSIONS.includes(version))) {
    const shown = JSON.stringify(version ?? null);
    const message = typeof version === "number"
      ? `okf_version ${shown} is a number; write it quoted, "${version}"`
      : `okf_version ${shown} is not one this validator knows (${
        SUPPORTED_OKF_VERSIONS.join(", ")
      }); reading it best-effort`;
    findings.push(ruleFinding("okf/unsupported-version", message, doc.path, at.line, at.column));
  }
  return findings;
}

function checkIndexBody(doc: BundleDocument): Finding[] {
  const findings: Finding[] = [];
  const problem = (l: BodyLine, message: string) =>
    findings.push(ruleFinding("okf/index-structure", message, doc.path, l.line, 1));
  let sections = 0;
  let inEntry = false;
  let inFence = false;
  for (const l of bodyLines(doc.body, doc.bodyLine)) {
    if (l.inFence && !inFence) {
      problem(l, "An index holds no code blocks, only linked list entries");
    }
    inFence = l.inFence;
    if (l.inFence || l.text.trim() === "" || COMMENT.test(l.text)) continue;
    if (/^#[ \t]+\S/.test(l.text)) {
      sections++;
      inEntry = false;
    } else if (/^#{2,6}([ \t]|$)/.test(l.text)) {
      problem(l, "An index uses only level-one headings ('# Section')");
    } else if (LIST_ITEM.test(l.text)) {
      if (sections === 0) problem(l, "An index entry needs a '# ' section heading above it");
      else if (!LINKED_ITEM.test(l.text)) {
        problem(l, "An index entry should start with a link: '* [Title](target) - description'");
      }
      inEntry = true;
    } else if (!(inEntry && /^[ \t]/.test(l.text))) {
      problem(l, "An index holds only '# ' section headings and '* [Title](target)' entries");
    }
  }
  if (sections === 0 && findings.length === 0) {
    problem(
      { text: "", line: doc.bodyLine, inFence: false },
      "An index needs at least one '# ' section",
    );
  }
  return findings;
}
