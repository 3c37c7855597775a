/**
 * What one corpus is asked to build, resolved: the caller's explicit
 * settings, those against the live index's record, and the
 * `index --rebuild` command that builds what they ask for.
 */
import { isJoint } from "../embed/mod.ts";
import type { RebuildFix } from "../hints.ts";
import { KNOWLEDGE_INPUT_FORMAT } from "../pipeline/mod.ts";
import {
  readManifest,
  type RecordedSettings,
  type StoredIndex,
  UnusableIndexError,
} from "../store/mod.ts";
import type { Hints } from "../hints.ts";
import type { ConfiguredCorpusOptions } from "./corpus.ts";
import { isEmbedder } from "./corpus_models.ts";
import {
  declaresBundle,
  type EffectiveSettings,
  effectiveSettings,
  type IndexSettings,
} from "./corpus_settings.ts";
import type { EmbedderSettings } from "./open_models.ts";
import type { IndexView } from "./query_embeddings.ts";
import { rebuildFix } from "./rebuild_command.ts";

/** A corpus's settings, resolved on demand (the index's record may change between calls). */
export class CorpusConfig {
  constructor(
    private readonly root: string,
    private readonly indexDir: string,
    private readonly options: ConfiguredCorpusOptions,
    private readonly hints: Hints,
  ) {}

  /** The caller's explicit settings. */
  chosen(): { embedder: EmbedderSettings; index: IndexSettings } {
    const { embedder, include, exclude, maxFileBytes, maxChunkChars, knowledge, quantization } =
      this.options;
    return {
      embedder: isEmbedder(embedder) ? {} : { ...embedder },
      index: { include, exclude, maxFileBytes, maxChunkChars, knowledge, quantization },
    };
  }

  /** Effective settings against the live index's record (`null`: ignore the record). */
  async effective(recorded?: null): Promise<EffectiveSettings> {
    // An index this version cannot read records nothing it could follow; index rebuilds it.
    const manifest = recorded === null
      ? null
      : await readManifest(this.indexDir, this.root).catch((error) => {
        if (error instanceof UnusableIndexError) return null;
        throw error;
      });
    const bundle = await declaresBundle(this.root);
    const settings = effectiveSettings(this.chosen(), manifest?.settings, bundle);
    // The text embedded is part of the model's identity: one corpus keeps one embedder for it.
    if (settings.index.knowledge) settings.embedder.inputFormat = KNOWLEDGE_INPUT_FORMAT;
    return settings;
  }

  /**
   * The index settings a run would use over `index`: its record under the
   * caller's choices, as `effective()` gives them for the live index, without
   * reading its manifest again (a search already holds it).
   */
  async indexOf(index: StoredIndex): Promise<EffectiveSettings["index"]> {
    const bundle = await declaresBundle(this.root);
    return effectiveSettings(this.chosen(), index.manifest.settings, bundle).index;
  }

  /** The embedder settings for an index: its recorded settings and input format under the caller's choices. */
  embedderOf(index: IndexView): EmbedderSettings {
    const chosen = this.chosen();
    const settings = effectiveSettings(chosen, index.manifest.settings, false);
    settings.embedder.inputFormat = index.manifest.inputFormat;
    // An index of the GGUF's vectors alone (built before joint vectors, or with no static
    // model beside) is searched as it was built, unless the caller asks otherwise.
    if (chosen.embedder.staticShare === undefined && !isJoint(index.manifest.identity)) {
      settings.embedder.staticShare = 0;
    }
    return settings.embedder;
  }

  /** The `index --rebuild` command that builds what this corpus's settings ask for. */
  async rebuildFix(recorded: RecordedSettings | undefined): Promise<RebuildFix> {
    return rebuildFix({
      root: this.root,
      chosen: this.chosen(),
      fromConfig: this.options.fromConfig,
      recorded,
      looksLikeBundle: await declaresBundle(this.root),
    });
  }
}
