/** Conformance of one concept document (§4.1, §11): front matter present, `type` non-empty. */
import type { Finding } from "./finding.ts";
import type { BundleDocument } from "./load_bundle.ts";
import { ruleFinding } from "./okf_rules.ts";
import { checkOptionalFields } from "./check_optional_fields.ts";

/** Findings for a concept; front matter parse failures were already reported while loading. */
export function checkConcept(doc: BundleDocument): Finding[] {
  if (doc.block === "absent") {
    return [
      ruleFinding(
        "okf/missing-front-matter",
        "A concept needs a YAML front matter block opened by '---' on its first line",
        doc.path,
      ),
    ];
  }
  if (!doc.frontMatter) return [];
  const type = doc.frontMatter.data.type;
  const findings: Finding[] = [];
  const at = doc.frontMatter.keys.get("type") ?? { line: 1, column: 1 };
  if (typeof type !== "string" || type.trim() === "") {
    const message = type === undefined
      ? "Front matter has no `type`; add one naming the kind of concept, e.g. `type: Guide`"
      : `\`type\` should be a non-empty string, not ${JSON.stringify(type ?? null)}`;
    findings.push(ruleFinding("okf/missing-type", message, doc.path, at.line, at.column));
  }
  findings.push(...checkOptionalFields(doc));
  return findings;
}
