/**
 * Prints `walkTree(Deno.args[0])` as JSON. Tests run it in a child process
 * whose --deny-read flags make chosen paths unreadable, even to root.
 */
import { walkTree } from "../mod.ts";

const result = await walkTree(Deno.args[0]!);
await Deno.stdout.write(new TextEncoder().encode(JSON.stringify(result)));
