/**
 * What every tool of the MCP server shares: its answer, or one `wayfinder: …`
 * line when it fails; the `root` argument; the limits on one call.
 */
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { ServerNotification, ServerRequest } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { WayfinderError } from "../mod.ts";
import { hintsFor, worded } from "../cli/mod.ts";

/** Limits that keep one call from flooding an agent's context or the machine. */
export const LIMITS = { limit: 100, contextChars: 100_000, lines: 2_000 } as const;

/** What a tool handler returns. */
export type ToolResult = {
  content: { type: "text"; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
};

/** Runs a tool body; any error becomes an error result with one `wayfinder: …` line. */
export async function answer(
  body: () => Promise<{ text: string; data: object }>,
): Promise<ToolResult> {
  try {
    const { text, data } = await body();
    return {
      content: [{ type: "text", text }],
      structuredContent: data as Record<string, unknown>,
    };
  } catch (error) {
    // A fix no corpus worded yet is worded for the agent, as the corpora word theirs.
    const message = error instanceof WayfinderError || error instanceof Error
      ? worded(error, hintsFor("tools")).message
      : String(error);
    return {
      content: [{ type: "text", text: `wayfinder: ${message.split("\n")[0]}` }],
      isError: true,
    };
  }
}

export const clamp = (value: number | undefined, max: number) =>
  value === undefined ? undefined : Math.max(1, Math.min(Math.floor(value), max));

/** A `root` argument; each registration describes it with the roots served. */
export type RootArgument = z.ZodOptional<z.ZodString>;
export const ROOT: RootArgument = z.string().optional();

/** Per-request helpers the SDK hands a tool: progress notifications, the request's metadata. */
export type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;
