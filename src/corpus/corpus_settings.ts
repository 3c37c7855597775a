import { join } from "node:path";
import { BUILD_DEFAULTS } from "../build_defaults.ts";
import { type Hints, hintsFor } from "../hints.ts";
import { declaresOkf } from "../okf/mod.ts";
import { CHUNKER_VERSION, INPUT_FORMAT, KNOWLEDGE_INPUT_FORMAT } from "../pipeline/mod.ts";
import type { IndexManifest, RecordedSettings } from "../store/mod.ts";
import { decodeText, type WalkOptions } from "../walk/mod.ts";
import type { EmbedderSettings } from "./open_models.ts";
import type { CorpusOptions } from "./corpus.ts";

/** How a corpus walks, chunks and stores its tree: `CorpusOptions`' index settings. */
export type IndexSettings = Pick<
  CorpusOptions,
  "include" | "exclude" | "maxFileBytes" | "maxChunkChars" | "knowledge" | "quantization"
>;

/** The settings a run goes by. */
export interface EffectiveSettings {
  embedder: EmbedderSettings;
  index: Required<IndexSettings>;
  /**
   * Knowledge indexing was turned off by choice (`--no-knowledge`): recorded,
   * so a folder declaring okf_version stays plain until chosen otherwise.
   */
  knowledgeOff: boolean;
}

/**
 * Settings for this run: what the caller chose explicitly, else what the
 * index was built with, else the defaults. So `search` uses the model and
 * long-input policy `index` used without the flags being repeated.
 */
export function effectiveSettings(
  chosen: { embedder: EmbedderSettings; index: IndexSettings },
  recorded: RecordedSettings | undefined,
  looksLikeBundle: boolean,
): EffectiveSettings {
  const pick = <T>(mine: T | undefined, theirs: T | undefined, fallback: T): T =>
    mine ?? theirs ?? fallback;
  const e = chosen.embedder;
  const r = recorded?.embedder;
  // The recorded model and URL belong to the recorded provider only.
  const sameProvider = e.provider === undefined || e.provider === r?.provider;
  const embedder: EmbedderSettings = {
    ...e,
    provider: pick(
      e.provider,
      r?.provider as EmbedderSettings["provider"],
      BUILD_DEFAULTS.provider,
    ),
    model: e.model ?? (sameProvider ? r?.model : undefined),
    modelOrigin: e.model ? e.modelOrigin : "the index's settings",
    url: e.url ?? (sameProvider ? r?.url : undefined),
    staticShare: pick(
      e.staticShare,
      sameProvider ? r?.staticShare : undefined,
      BUILD_DEFAULTS.staticShare,
    ),
    longInput: pick(e.longInput, recorded?.longInput, BUILD_DEFAULTS.longInput),
  };
  const i = chosen.index;
  const knowledgeOff = i.knowledge === false ||
    (i.knowledge === undefined && recorded?.knowledgeOff === true);
  const index = {
    include: pick(i.include, recorded?.include, [...BUILD_DEFAULTS.include]),
    exclude: pick(i.exclude, recorded?.exclude, [...BUILD_DEFAULTS.exclude]),
    maxFileBytes: pick(i.maxFileBytes, recorded?.maxFileBytes, BUILD_DEFAULTS.maxFileBytes),
    maxChunkChars: pick(i.maxChunkChars, recorded?.maxChunkChars, BUILD_DEFAULTS.maxChunkChars),
    // A folder that came to declare okf_version is a bundle from then on, unless turned off.
    knowledge: !knowledgeOff &&
      (i.knowledge ?? (looksLikeBundle || (recorded?.knowledge ?? false))),
    quantization: pick(i.quantization, recorded?.quantization, BUILD_DEFAULTS.quantization),
  };
  return { embedder, index, knowledgeOff };
}

/** What a build records: the settings that decide its chunks and vectors. */
export function recordOf(settings: EffectiveSettings): RecordedSettings {
  const {
    provider = BUILD_DEFAULTS.provider,
    model,
    url,
    longInput = BUILD_DEFAULTS.longInput,
    staticShare = BUILD_DEFAULTS.staticShare,
  } = settings.embedder;
  const share = staticShare === BUILD_DEFAULTS.staticShare ? {} : { staticShare };
  return {
    embedder: { provider, ...(model ? { model } : {}), ...(url ? { url } : {}), ...share },
    longInput,
    ...settings.index,
    ...(settings.knowledgeOff ? { knowledgeOff: true as const } : {}),
  };
}

/**
 * How `index`, `fit-inputs`, `status` and a search's freshness check walk
 * the tree: built in one place, so they never disagree about its files.
 * `privateDirs` (the data and index folders) are never walked, even inside the root.
 */
export function walkOptionsOf(
  index: Required<IndexSettings>,
  privateDirs: string[],
): WalkOptions {
  const { include, exclude, maxFileBytes } = index;
  return { include, exclude, maxFileBytes, excludeDirs: privateDirs };
}

/**
 * Whether `root/index.md` declares `okf_version`, which makes the folder a
 * bundle. It is decoded as the walker decodes it (a UTF-8 BOM dropped), so
 * the folder is a bundle exactly when the index.md that gets indexed says so.
 */
export async function declaresBundle(root: string): Promise<boolean> {
  const bytes = await Deno.readFile(join(root, "index.md")).catch(() => new Uint8Array());
  const decoded = decodeText(bytes);
  return "text" in decoded && declaresOkf(decoded.text);
}

/**
 * How this version would build an index differently from the live one:
 * another chunker, or another embedding input format (a folder that became
 * a bundle included). Worded for the user; empty when nothing differs.
 */
export function buildDrift(manifest: IndexManifest, knowledge: boolean): string[] {
  const reasons: string[] = [];
  if (manifest.chunkerVersion !== CHUNKER_VERSION) {
    reasons.push(`chunker version ${manifest.chunkerVersion ?? "?"} → ${CHUNKER_VERSION}`);
  }
  const format = knowledge ? KNOWLEDGE_INPUT_FORMAT : INPUT_FORMAT;
  if (manifest.inputFormat !== undefined && manifest.inputFormat !== format) {
    reasons.push(
      `embedding input format ${formatName(manifest.inputFormat)} → ${formatName(format)}`,
    );
  }
  return reasons;
}

/** An input format as people read it: the plain one is a number in manifests. */
function formatName(format: number | string): string {
  return typeof format === "number" ? `plain v${format}` : format;
}

/**
 * The notice for a knowledge policy given to an index not built as a bundle,
 * with the real cause: the index predates the folder becoming one (a run of
 * `index` fixes that), knowledge was turned off, or the folder is no bundle.
 */
export function policyIgnoredNotice(
  root: string,
  settings: { declared: boolean; chosen?: boolean },
  hints: Hints = hintsFor("cli"),
): string {
  const why = settings.chosen === false
    ? "knowledge indexing is turned off for it"
    : settings.declared
    ? `its index.md now declares okf_version but the index predates that; ${hints.index(root)}`
    : settings.chosen
    ? `it was indexed before knowledge was turned on; ${hints.index(root)}`
    : `its index.md declares no okf_version; ${hints.indexAsBundle(root)} to make it one`;
  return `the knowledge policy was ignored: ${root} is not indexed as an OKF bundle (${why})`;
}
