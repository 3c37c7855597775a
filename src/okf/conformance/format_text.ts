/** A validation report as a linter prints it: findings grouped under their file, then a summary. */
import type { Finding } from "./finding.ts";
import type { ValidationReport } from "./validate_bundle.ts";

/**
 * What the summary says of one bound Profile (validateProject's ProfileStatus
 * has these fields): applied, with its packages and commit, or why not.
 */
export interface ProfileLine {
  name: string;
  status: "applied" | "unresolved" | "unbound";
  packages?: { id: string; release: string }[];
  commit?: string;
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/**
 * Text for a report. `display` turns a bundle-relative path into the path
 * shown (the command passes one relative to the working directory).
 */
export function formatReportText(
  report: ValidationReport & { profiles?: readonly ProfileLine[] },
  display: (path: string) => string = (p) => p,
): string {
  const out: string[] = [];
  let file: string | null = null;
  const rows: Finding[] = [];
  const flush = () => {
    if (file === null) return;
    out.push(display(file), ...table(rows), "");
    rows.length = 0;
  };
  for (const f of report.findings) {
    if (f.location.path !== file) {
      flush();
      file = f.location.path;
    }
    rows.push(f);
  }
  flush();
  for (const p of report.profiles ?? []) {
    const packages = (p.packages ?? []).map((k) => `${k.id} ${k.release}`).join(" extends ");
    out.push(
      p.status === "applied"
        ? `Profile ${p.name}: ${packages} @ ${p.commit!.slice(0, 12)} applied`
        : `Profile ${p.name}: not applied (wayfinder/profile-${p.status})`,
    );
  }
  const c = report.counts;
  out.push(
    `${report.gate}: ${plural(c.error, "error", "errors")}, ${
      plural(c.advisory, "advisory", "advisories")
    }, ${plural(c.note, "note", "notes")} in ${plural(report.documents, "file", "files")} (${
      plural(report.concepts, "concept", "concepts")
    })`,
  );
  return out.join("\n") + "\n";
}

function table(rows: Finding[]): string[] {
  const where = rows.map((f) => `${f.location.line}:${f.location.column}`);
  const width = Math.max(...where.map((w) => w.length));
  return rows.map((f, i) =>
    `  ${where[i]!.padEnd(width)}  ${f.severity.padEnd(8)}  ${f.message}  ${f.id}`
  );
}
