/**
 * Prints `validateBundle(Deno.args[0])` as JSON. Tests run it in a child
 * process whose --deny-read flags make chosen files unreadable, even to root.
 */
import { validateBundle } from "../mod.ts";

const report = await validateBundle(Deno.args[0]!);
await Deno.stdout.write(new TextEncoder().encode(JSON.stringify(report)));
