/**
 * The MCP tests' client: the SDK's own client over a real stdio transport to
 * a server (`wayfinder mcp` unless another script is given) in a child process.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { MAIN } from "./_run.ts";

/** A tool call's answer. */
export interface ToolResult {
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** How to start the server: its script and arguments (before the roots), its folder. */
export interface ServerOptions {
  /** @default [MAIN, "mcp"] */
  server?: string[];
  cwd?: string;
}

/**
 * A client connected to the server serving `args`, its environment `env` over
 * what `wayfinder()` gives a run (no colour, one thread) and this process's
 * PATH and HOME.
 */
export async function mcpClient(
  args: string[],
  env: Record<string, string>,
  options: ServerOptions = {},
): Promise<Client> {
  const client = new Client({ name: "wayfinder-test", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: Deno.execPath(),
      args: ["run", "-A", "--quiet", ...(options.server ?? [MAIN, "mcp"]), ...args],
      cwd: options.cwd,
      env: {
        NO_COLOR: "1",
        WAYFINDER_THREADS: "1",
        PATH: Deno.env.get("PATH") ?? "",
        HOME: Deno.env.get("HOME") ?? "",
        ...env,
      },
      stderr: "pipe",
    }),
  );
  return client;
}

/** Calls the tool `name` with `args`. */
export async function callTool(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<ToolResult> {
  return await client.callTool({ name, arguments: args }) as ToolResult;
}
