import assert from "node:assert/strict";
import { queriedIdentifiers } from "./named_definitions.ts";

Deno.test("queriedIdentifiers() tells a bare or qualified name from identifiers inside a sentence", () => {
  assert.deepEqual(queriedIdentifiers("Mux"), { names: ["Mux"], whole: true });
  assert.deepEqual(queriedIdentifiers("field_validator"), {
    names: ["field_validator"],
    whole: true,
  });
  assert.deepEqual(queriedIdentifiers("Sinatra::Base"), {
    names: ["Base", "Sinatra::Base"],
    whole: true,
  });
  assert.deepEqual(queriedIdentifiers("response"), { names: [], whole: false });
  assert.deepEqual(queriedIdentifiers("how safeParse reports a ZodError"), {
    names: ["safeParse", "ZodError"],
    whole: false,
  });
  // A capitalised word names a type, first word or not; all-caps and short words do not.
  assert.deepEqual(queriedIdentifiers("Request type and HTTP request representation in Vapor"), {
    names: ["Request", "Vapor"],
    whole: false,
  });
  assert.deepEqual(queriedIdentifiers("how an Id is parsed"), { names: [], whole: false });
  // A constant or macro's name (SCREAMING_SNAKE_CASE) too, but no all-caps word alone.
  assert.deepEqual(queriedIdentifiers("logging macros ABSL_LOG and ABSL_CHECK for HTTP"), {
    names: ["ABSL_LOG", "ABSL_CHECK"],
    whole: false,
  });
  // A qualified name inside a sentence names its last part, not its namespace.
  assert.deepEqual(queriedIdentifiers("how Ecto.Schema defines structs"), {
    names: ["Schema"],
    whole: false,
  });
  assert.deepEqual(queriedIdentifiers("Plug::Conn and Plug::Router"), {
    names: ["Conn", "Router"],
    whole: false,
  });
});
