import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { resolve } from "node:path";
import process from "node:process";
import { type ConfiguredCorpus, openConfiguredCorpus } from "../src/cli/mod.ts";
import { createServer, Roots, type SearchDefaults } from "../src/mcp/mod.ts";
import type { Command } from "./_command.ts";
import {
  corpusOptions,
  dataRootAt,
  EMBEDDER_SETTINGS,
  INDEX_SETTINGS,
  SEARCH_SETTINGS,
  searchOptions,
} from "./_wiring.ts";

/** `wayfinder mcp [root…]`: serve the roots' indexes to coding agents over stdio. */
export const mcpCommand: Command = {
  spec: {
    name: "mcp",
    summary:
      "Serve indexes as Model Context Protocol tools over stdio (search, read_range, get_chunk, index, status, validate, fit_inputs)",
    positionals: ["root..."],
    // The search settings are the defaults of the `search` tool's omitted arguments.
    settings: [...INDEX_SETTINGS, ...EMBEDDER_SETTINGS, ...SEARCH_SETTINGS, "roots"],
  },
  targetPositional: 0,
  async run(config, context) {
    // stdout carries protocol messages only: anything that logs goes to stderr.
    console.log = console.info = console.debug = console.error;
    // Roots named on the command line replace those wayfinder.json configures.
    const named = config.positionals.map((p) => resolve(context.cwd, p));
    const configured = named.length && config.sources.roots === "file" ? [] : config.settings.roots;
    const paths = [...named, ...configured];
    const unique = [...new Set(paths.length ? paths : [context.cwd])];
    // Each root reads its own wayfinder.json, as the CLI would for it.
    const corpora: ConfiguredCorpus[] = [];
    const defaults = new Map<ConfiguredCorpus, SearchDefaults>();
    for (const root of unique) {
      const own = root === config.target ? config : config.forTarget(root);
      // Its errors and notices name tool calls and arguments, not commands and flags.
      const options = { ...corpusOptions(own, context), hintsFor: "tools" as const };
      // Each root gets its own index folder; --index-dir only makes sense for one.
      const corpus = await openConfiguredCorpus(
        root,
        unique.length > 1 ? { ...options, indexDir: undefined } : options,
      );
      corpora.push(corpus);
      defaults.set(corpus, {
        options: searchOptions(own),
        diversity: { lambda: own.settings.lambda, fetchK: own.settings.fetchK },
      });
    }
    const server = createServer(new Roots(corpora), {
      version: context.version,
      dataRootAt: dataRootAt(config),
      searchDefaults: (corpus) => defaults.get(corpus)!,
    });
    const transport = new StdioServerTransport();
    const closed = new Promise<void>((done) => (transport.onclose = done));
    await server.connect(transport);
    // The client ends the session by closing our stdin or by a signal.
    const stop = () => void transport.close();
    process.stdin.on("end", stop);
    for (const signal of ["SIGINT", "SIGTERM"] as const) Deno.addSignalListener(signal, stop);
    context.stderr(`wayfinder mcp: serving ${unique.join(", ")}\n`);
    await closed;
    // Closing aborted any index run; it ends before the models it uses are closed, and a
    // signal arriving meanwhile must not cut its lock's release short.
    await server.settled();
    for (const signal of ["SIGINT", "SIGTERM"] as const) Deno.removeSignalListener(signal, stop);
    for (const corpus of corpora) await corpus.close();
    return 0;
  },
};
