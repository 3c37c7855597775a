/**
 * Tool arguments checked before the SDK sees a call. The SDK answers a
 * wrong argument with its schema library's issues, one line each, and takes
 * an unknown argument silently; an agent does better with one line that
 * names the argument and what it takes, like every other failing call.
 */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage, MessageExtraInfo } from "@modelcontextprotocol/sdk/types.js";
import { z, type ZodRawShape, type ZodTypeAny } from "zod";
import { escapeLine } from "../cli/mod.ts";

/** What a value of `schema` is, in words: "a whole number ≥ 1", "one of dense, lexical". */
export function expectation(schema: ZodTypeAny): string {
  if (schema instanceof z.ZodOptional) return expectation(schema.unwrap());
  if (schema instanceof z.ZodString) {
    const min = schema.minLength ?? 0;
    if (min === 0) return "a string";
    return min === 1 ? "a non-empty string" : `a string of at least ${min} characters`;
  }
  if (schema instanceof z.ZodNumber) {
    const kind = schema.isInt ? "a whole number" : "a number";
    return schema.minValue === null ? kind : `${kind} ≥ ${schema.minValue}`;
  }
  if (schema instanceof z.ZodBoolean) return "true or false";
  if (schema instanceof z.ZodEnum) return `one of ${schema.options.join(", ")}`;
  if (schema instanceof z.ZodArray) return `a list, each ${expectation(schema.element)}`;
  if (schema instanceof z.ZodRecord) {
    return `an object, each value ${expectation(schema.valueSchema)}`;
  }
  return "a value of another type";
}

/** A value as the agent sent it, short enough for one line. */
function shown(value: unknown): string {
  const json = JSON.stringify(value) ?? String(value);
  return escapeLine(json.length > 60 ? `${json.slice(0, 57)}...` : json);
}

/**
 * The first thing wrong with a call's arguments, as one `wayfinder: …` line,
 * or null when `shape` takes them: a missing or mistyped argument in the
 * order the tool lists them, then an argument the tool does not have.
 */
export function argumentProblem(tool: string, shape: ZodRawShape, args: unknown): string | null {
  const given = args ?? {};
  if (typeof given !== "object" || Array.isArray(given)) {
    return `wayfinder: ${tool} takes its arguments as an object, not ${shown(given)}`;
  }
  const values = given as Record<string, unknown>;
  for (const [name, schema] of Object.entries(shape)) {
    const value = Object.hasOwn(values, name) ? values[name] : undefined;
    if (schema.safeParse(value).success) continue;
    return value === undefined
      ? `wayfinder: ${tool} needs ${name}: ${expectation(schema)}`
      : `wayfinder: ${tool}: ${name} must be ${expectation(schema)}, not ${shown(value)}`;
  }
  const unknown = Object.keys(values).find((name) => !Object.hasOwn(shape, name));
  if (unknown === undefined) return null;
  const known = Object.keys(shape);
  return `wayfinder: ${tool} has no argument '${escapeLine(unknown)}'; ` +
    (known.length ? `it takes ${known.join(", ")}` : "it takes none");
}

/**
 * Answers a `tools/call` whose arguments `argumentProblem` refuses with an
 * error result of that line; passes every other message on. Call it once
 * the server is connected: it wraps the handler the connection installed.
 */
export function checkToolArguments(
  transport: Transport,
  shapes: ReadonlyMap<string, ZodRawShape>,
): void {
  const deliver = transport.onmessage;
  transport.onmessage = (message: JSONRPCMessage, extra?: MessageExtraInfo) => {
    const problem = callProblem(message, shapes);
    if (problem === null || !("id" in message)) return deliver?.(message, extra);
    const result = { content: [{ type: "text", text: problem }], isError: true };
    transport.send({ jsonrpc: "2.0", id: message.id, result }).catch(() => {});
  };
}

function callProblem(
  message: JSONRPCMessage,
  shapes: ReadonlyMap<string, ZodRawShape>,
): string | null {
  if (!("method" in message) || message.method !== "tools/call") return null;
  const params = (message.params ?? {}) as { name?: unknown; arguments?: unknown };
  // A tool the server lacks is the SDK's to refuse.
  const shape = typeof params.name === "string" ? shapes.get(params.name) : undefined;
  return shape ? argumentProblem(params.name as string, shape, params.arguments) : null;
}

/** What the registrations need of the server: its tools, and the status resources. */
export type ToolRegistry = Pick<McpServer, "registerTool" | "registerResource">;

/**
 * `server`'s tool registration, keeping the argument shape of each tool
 * registered through it for `checkToolArguments`: the SDK gives no way to
 * read a tool's arguments back.
 */
export function recordingRegistry(
  server: McpServer,
): { tools: ToolRegistry; shapes: ReadonlyMap<string, ZodRawShape> } {
  const shapes = new Map<string, ZodRawShape>();
  const registerTool = ((name: string, config: { inputSchema?: unknown }, cb: never) => {
    // A tool given a whole schema rather than its arguments' shape is left to the SDK.
    if (config.inputSchema && !(config.inputSchema instanceof z.ZodType)) {
      shapes.set(name, config.inputSchema as ZodRawShape);
    }
    return server.registerTool(name, config as never, cb);
  }) as McpServer["registerTool"];
  return {
    tools: { registerTool, registerResource: server.registerResource.bind(server) },
    shapes,
  };
}
