// Over 400 lines: one table, a spec per grammar, so every language reads the same way.
/**
 * What the code chunker needs to know about each grammar, as data: which
 * syntax nodes are declarations, which hold members, which attach to the
 * declaration after them. The chunker itself has no per-language branches.
 */

/** How one declaration node type becomes chunks. */
export interface DeclarationRule {
  /** Chunk type (`function`, `class`, `field`, …). */
  type: string;
  /** Chunk type when the declaration is a member of a class-like container (`function` → `method`). */
  member?: string;
  /**
   * A more specific type, chosen by the first matching node type among the
   * declaration's children (keywords included) or named grandchildren:
   * `{ getter_signature: "getter" }`.
   */
  refine?: Readonly<Record<string, string>>;
  /** Node types holding the members; makes this a container. The node's own type means "its children". */
  body?: readonly string[];
  /** Members keep their file-level types (a module or namespace, not a class). */
  namespace?: boolean;
  /** Members belong to the enclosing scope: no qualified names (a C header guard). */
  transparent?: boolean;
  /** The field holding the name, when not `name` (Rust's `impl X` names its `type`). */
  name?: string;
  /** The field whose type names the enclosing declaration (Go's method receiver). */
  receiver?: string;
  /** The `name` node's text is the name as written (PHP's `namespace App\\Mail`). */
  literalName?: boolean;
}

/**
 * Declarations written as calls (Elixir's `def`, `defmodule`): calls of the
 * `node` type whose `callee` field reads one of `rules`' keys declare, by
 * that key's rule; the name is in the call's arguments. Other calls are code.
 */
export interface CallDeclarations {
  node: string;
  callee: string;
  rules: Readonly<Record<string, DeclarationRule>>;
}

/** One grammar's table. */
export interface LanguageSpec {
  /** File stem of the grammar (`tree-sitter-<grammar>.wasm`). */
  grammar: string;
  /**
   * The npm package whose root holds the grammar, where tree-sitter-wasms
   * ships none or one that does not work; else tree-sitter-wasms' `out/`.
   */
  package?: string;
  declarations: Readonly<Record<string, DeclarationRule>>;
  /** File-level nodes that form the `imports` chunk. */
  imports: readonly string[];
  /** Comments join the declaration after them when no blank line separates them. */
  comments: readonly string[];
  /** Nodes that always join the declaration after them (attributes, decorators, annotations). */
  prefixes: readonly string[];
  /** Nodes wrapping a declaration (`export …`, `@decorated`): the chunk spans the wrapper, typed by the inner node. */
  wrappers: readonly string[];
  /** A node completing the signature before it (Dart puts a method's body beside its signature). */
  trailingBodies: readonly string[];
  /** Statement lists: oversized declarations split between their children. */
  blocks: readonly string[];
  /**
   * Nodes whose children count as their parent's own: inside a body (Java's enum
   * declarations) or at the top of a file (Haskell's `declarations`).
   */
  flatten: readonly string[];
  /** Member names that make a method a constructor (besides the class's own name). */
  constructors: readonly string[];
  /**
   * Declarations that the next declaration of the same name completes: a run
   * of them joins it (TypeScript's overload signatures, `function f(a: string): string;`;
   * Haskell's equations of one function, one per pattern).
   */
  overloads: readonly string[];
  /**
   * Chunk types that join runs of small neighbours, besides imports, variables,
   * constants and fields (Haskell's one-line functions and type synonyms).
   */
  mergeable: readonly string[];
  /** Declarations made by calling a macro, for languages that declare that way. */
  calls?: CallDeclarations;
}

const FUNCTION: DeclarationRule = { type: "function", member: "method" };

function spec(
  partial: Partial<LanguageSpec> & Pick<LanguageSpec, "grammar" | "declarations">,
): LanguageSpec {
  return {
    imports: [],
    comments: ["comment"],
    prefixes: [],
    wrappers: [],
    trailingBodies: [],
    blocks: [],
    flatten: [],
    constructors: [],
    overloads: [],
    mergeable: [],
    ...partial,
  };
}

const ECMASCRIPT_FUNCTIONS = {
  arrow_function: "function",
  function_expression: "function",
  function: "function",
  generator_function: "function",
} as const;

const ECMASCRIPT_MEMBER_FUNCTIONS = {
  arrow_function: "method",
  function_expression: "method",
  function: "method",
} as const;

/** JavaScript's declarations, and TypeScript's on top when `typed`. */
function ecmascript(grammar: string, typed: boolean): LanguageSpec {
  const typescriptOnly: Record<string, DeclarationRule> = {
    function_signature: FUNCTION,
    abstract_class_declaration: { type: "class", body: ["class_body"] },
    interface_declaration: { type: "interface", body: ["interface_body", "object_type"] },
    enum_declaration: { type: "enum" },
    type_alias_declaration: { type: "type" },
    internal_module: { type: "namespace", body: ["statement_block"], namespace: true },
    module: { type: "namespace", body: ["statement_block"], namespace: true },
    method_signature: { type: "method" },
    abstract_method_signature: { type: "method" },
    public_field_definition: { type: "field", refine: ECMASCRIPT_MEMBER_FUNCTIONS },
    property_signature: { type: "field" },
    index_signature: { type: "field" },
  };
  return spec({
    grammar,
    declarations: {
      function_declaration: FUNCTION,
      generator_function_declaration: FUNCTION,
      class_declaration: { type: "class", body: ["class_body"] },
      lexical_declaration: { type: "variable", refine: ECMASCRIPT_FUNCTIONS },
      variable_declaration: { type: "variable", refine: ECMASCRIPT_FUNCTIONS },
      method_definition: { type: "method", refine: { get: "getter", set: "setter" } },
      ...(typed ? typescriptOnly : {
        field_definition: { type: "field", refine: ECMASCRIPT_MEMBER_FUNCTIONS },
      }),
    },
    imports: ["import_statement"],
    prefixes: ["decorator"],
    wrappers: typed ? ["export_statement", "ambient_declaration"] : ["export_statement"],
    blocks: ["statement_block", "object", "array", "switch_body"],
    constructors: ["constructor"],
    overloads: typed ? ["function_signature", "method_signature", "abstract_method_signature"] : [],
  });
}

const DART_SIGNATURES = {
  getter_signature: "getter",
  setter_signature: "setter",
  constructor_signature: "constructor",
  constant_constructor_signature: "constructor",
  factory_constructor_signature: "constructor",
  redirecting_factory_constructor_signature: "constructor",
  function_signature: "method",
  operator_signature: "method",
} as const;

const C_DECLARATIONS: Record<string, DeclarationRule> = {
  function_definition: FUNCTION,
  declaration: { type: "variable", refine: { function_declarator: "function" } },
  type_definition: { type: "type" },
  struct_specifier: { type: "struct" },
  union_specifier: { type: "struct" },
  enum_specifier: { type: "enum" },
  preproc_def: { type: "constant" },
  preproc_function_def: { type: "macro" },
  // Header guards wrap a whole file; chunk what is inside.
  preproc_ifdef: { type: "module", body: ["preproc_ifdef"], namespace: true, transparent: true },
};

/** Grammar tables by language id (the ids of `detectLanguage`). */
export const LANGUAGES: Readonly<Record<string, LanguageSpec>> = {
  typescript: ecmascript("typescript", true),
  tsx: ecmascript("tsx", true),
  javascript: ecmascript("javascript", false),
  dart: spec({
    grammar: "dart",
    declarations: {
      class_definition: { type: "class", body: ["class_body"] },
      mixin_declaration: { type: "mixin", body: ["class_body"] },
      extension_declaration: { type: "extension", body: ["extension_body"] },
      enum_declaration: { type: "enum", body: ["enum_body"] },
      type_alias: { type: "type", name: "type_identifier" },
      function_signature: FUNCTION,
      getter_signature: { type: "getter" },
      setter_signature: { type: "setter" },
      method_signature: { type: "method", refine: DART_SIGNATURES },
      declaration: { type: "field", refine: DART_SIGNATURES },
    },
    imports: ["import_or_export", "library_name", "part_directive", "part_of_directive"],
    comments: ["comment", "documentation_comment"],
    prefixes: ["annotation"],
    trailingBodies: ["function_body"],
    blocks: ["block", "list_literal", "set_or_map_literal"],
  }),
  python: spec({
    grammar: "python",
    declarations: {
      function_definition: FUNCTION,
      class_definition: { type: "class", body: ["block"] },
    },
    imports: ["import_statement", "import_from_statement", "future_import_statement"],
    wrappers: ["decorated_definition"],
    blocks: ["block", "dictionary", "list"],
    constructors: ["__init__"],
  }),
  go: spec({
    grammar: "go",
    declarations: {
      function_declaration: { type: "function" },
      method_declaration: { type: "method", receiver: "receiver" },
      type_declaration: {
        type: "type",
        refine: { struct_type: "struct", interface_type: "interface" },
      },
      const_declaration: { type: "constant" },
      var_declaration: { type: "variable" },
    },
    imports: ["package_clause", "import_declaration"],
    blocks: ["block", "literal_value", "expression_switch_statement", "field_declaration_list"],
  }),
  rust: spec({
    grammar: "rust",
    declarations: {
      function_item: FUNCTION,
      function_signature_item: FUNCTION,
      struct_item: { type: "struct" },
      union_item: { type: "struct" },
      enum_item: { type: "enum" },
      type_item: { type: "type" },
      const_item: { type: "constant" },
      static_item: { type: "constant" },
      macro_definition: { type: "macro" },
      trait_item: { type: "trait", body: ["declaration_list"] },
      impl_item: { type: "impl", body: ["declaration_list"], name: "type" },
      mod_item: { type: "module", body: ["declaration_list"], namespace: true },
    },
    imports: ["use_declaration", "extern_crate_declaration"],
    comments: ["line_comment", "block_comment"],
    prefixes: ["attribute_item"],
    blocks: ["block", "match_block", "field_declaration_list", "enum_variant_list"],
  }),
  java: spec({
    grammar: "java",
    declarations: {
      class_declaration: { type: "class", body: ["class_body"] },
      record_declaration: { type: "class", body: ["class_body"] },
      interface_declaration: { type: "interface", body: ["interface_body"] },
      annotation_type_declaration: { type: "interface", body: ["annotation_type_body"] },
      enum_declaration: { type: "enum", body: ["enum_body"] },
      method_declaration: { type: "method" },
      constructor_declaration: { type: "constructor" },
      compact_constructor_declaration: { type: "constructor" },
      field_declaration: { type: "field" },
      constant_declaration: { type: "field" },
    },
    imports: ["package_declaration", "import_declaration"],
    comments: ["line_comment", "block_comment"],
    blocks: ["block", "constructor_body", "switch_block"],
    flatten: ["enum_body_declarations"],
  }),
  c: spec({
    grammar: "c",
    declarations: C_DECLARATIONS,
    imports: ["preproc_include"],
    blocks: ["compound_statement", "initializer_list", "field_declaration_list"],
  }),
  cpp: spec({
    grammar: "cpp",
    declarations: {
      ...C_DECLARATIONS,
      class_specifier: { type: "class", body: ["field_declaration_list"] },
      struct_specifier: { type: "struct", body: ["field_declaration_list"] },
      namespace_definition: { type: "namespace", body: ["declaration_list"], namespace: true },
      field_declaration: { type: "field", refine: { function_declarator: "method" } },
    },
    imports: ["preproc_include", "using_declaration"],
    // `public:` introduces the member after it.
    prefixes: ["access_specifier"],
    wrappers: ["template_declaration"],
    blocks: ["compound_statement", "initializer_list"],
  }),
  c_sharp: spec({
    grammar: "c_sharp",
    declarations: {
      class_declaration: { type: "class", body: ["declaration_list"] },
      struct_declaration: { type: "struct", body: ["declaration_list"] },
      record_declaration: { type: "class", body: ["declaration_list"] },
      interface_declaration: { type: "interface", body: ["declaration_list"] },
      enum_declaration: { type: "enum" },
      namespace_declaration: { type: "namespace", body: ["declaration_list"], namespace: true },
      method_declaration: { type: "method" },
      constructor_declaration: { type: "constructor" },
      property_declaration: { type: "field" },
      field_declaration: { type: "field" },
      event_field_declaration: { type: "field" },
    },
    imports: ["using_directive"],
    blocks: ["block", "switch_body"],
  }),
  ruby: spec({
    grammar: "ruby",
    declarations: {
      class: { type: "class", body: ["body_statement"] },
      module: { type: "module", body: ["body_statement"], namespace: true },
      method: FUNCTION,
      singleton_method: FUNCTION,
    },
    blocks: ["body_statement", "do_block", "hash", "array"],
    constructors: ["initialize"],
  }),
  kotlin: spec({
    grammar: "kotlin",
    declarations: {
      class_declaration: {
        type: "class",
        body: ["class_body", "enum_class_body"],
        name: "type_identifier",
      },
      object_declaration: { type: "class", body: ["class_body"], name: "type_identifier" },
      companion_object: { type: "class", body: ["class_body"], name: "type_identifier" },
      function_declaration: FUNCTION,
      property_declaration: { type: "variable", member: "field" },
      secondary_constructor: { type: "constructor" },
      type_alias: { type: "type" },
    },
    imports: ["package_header", "import_list", "import_header"],
    comments: ["line_comment", "multiline_comment"],
    blocks: ["statements", "function_body"],
  }),
  php: spec({
    grammar: "php",
    declarations: {
      class_declaration: { type: "class", body: ["declaration_list"] },
      interface_declaration: { type: "interface", body: ["declaration_list"] },
      trait_declaration: { type: "trait", body: ["declaration_list"] },
      enum_declaration: { type: "enum", body: ["enum_declaration_list"] },
      namespace_definition: {
        type: "namespace",
        body: ["compound_statement"],
        namespace: true,
        literalName: true,
      },
      function_definition: FUNCTION,
      method_declaration: { type: "method" },
      property_declaration: { type: "field" },
      const_declaration: { type: "constant", member: "field" },
    },
    imports: ["php_tag", "namespace_use_declaration"],
    blocks: ["compound_statement", "array_creation_expression", "switch_block", "match_block"],
    constructors: ["__construct"],
  }),
  scala: spec({
    grammar: "scala",
    declarations: {
      class_definition: { type: "class", body: ["template_body"] },
      object_definition: { type: "class", body: ["template_body"] },
      trait_definition: { type: "trait", body: ["template_body"] },
      function_definition: FUNCTION,
      function_declaration: FUNCTION,
      val_definition: { type: "variable", member: "field" },
      var_definition: { type: "variable", member: "field" },
      val_declaration: { type: "variable", member: "field" },
      var_declaration: { type: "variable", member: "field" },
      type_definition: { type: "type" },
    },
    imports: ["package_clause", "import_declaration"],
    prefixes: ["annotation"],
    blocks: ["block", "template_body", "case_block"],
  }),
  swift: spec({
    grammar: "swift",
    declarations: {
      class_declaration: {
        type: "class",
        body: ["class_body", "enum_class_body"],
        refine: { struct: "struct", enum: "enum", extension: "extension", actor: "class" },
      },
      protocol_declaration: { type: "interface", body: ["protocol_body"] },
      // Swift's functions carry their return type in a second `name` field.
      function_declaration: { ...FUNCTION, name: "simple_identifier" },
      protocol_function_declaration: { type: "method", name: "simple_identifier" },
      init_declaration: { type: "constructor" },
      deinit_declaration: { type: "method", name: "deinit" },
      subscript_declaration: { type: "method", name: "subscript" },
      property_declaration: { type: "variable", member: "field" },
      protocol_property_declaration: { type: "field" },
      typealias_declaration: { type: "type", name: "type_identifier" },
    },
    imports: ["import_declaration"],
    comments: ["comment", "multiline_comment"],
    blocks: ["function_body", "statements", "computed_property", "switch_statement"],
  }),
  bash: spec({
    grammar: "bash",
    declarations: {
      function_definition: FUNCTION,
      declaration_command: { type: "variable" },
      // `{ … }` around a whole script (so a partly downloaded one never runs): chunk what is
      // inside. It has no name of its own.
      compound_statement: {
        type: "module",
        body: ["compound_statement"],
        namespace: true,
        transparent: true,
        name: "name",
      },
    },
    blocks: ["compound_statement", "do_group", "if_statement", "case_statement"],
  }),
  elixir: spec({
    grammar: "elixir",
    declarations: {},
    calls: {
      node: "call",
      callee: "target",
      // The name is the first argument: `defmodule Plug.Conn`, `def put(conn) when …`.
      rules: Object.fromEntries(
        Object.entries<DeclarationRule>({
          defmodule: { type: "module", body: ["do_block"], namespace: true },
          defprotocol: { type: "interface", body: ["do_block"], namespace: true },
          defimpl: { type: "impl", body: ["do_block"], namespace: true },
          def: FUNCTION,
          defp: FUNCTION,
          defmacro: { type: "macro" },
          defmacrop: { type: "macro" },
          defguard: FUNCTION,
          defguardp: FUNCTION,
          defdelegate: FUNCTION,
        }).map(([callee, rule]) => [callee, { ...rule, name: "arguments" }]),
      ),
    },
    // `@doc`, `@spec` and their kin introduce the definition after them.
    prefixes: ["unary_operator"],
    blocks: ["do_block", "list", "map", "keywords"],
  }),
  zig: spec({
    grammar: "zig",
    declarations: {
      function_declaration: FUNCTION,
      // `const Point = struct { … };` declares a type by naming a container.
      variable_declaration: {
        type: "variable",
        member: "field",
        refine: {
          struct_declaration: "struct",
          union_declaration: "struct",
          enum_declaration: "enum",
          opaque_declaration: "type",
          error_set_declaration: "type",
        },
        body: ["struct_declaration", "union_declaration", "enum_declaration"],
      },
      container_field: { type: "field" },
      test_declaration: { type: "test" },
      comptime_declaration: { type: "module" },
    },
    blocks: ["block", "struct_declaration", "switch_expression", "initializer_list"],
  }),
  // tree-sitter-wasms' Lua grammar (2.1.3) parses only the first file of a process cleanly
  // under this runtime; tree-sitter-grammars' parses every one.
  lua: spec({
    grammar: "lua",
    package: "@tree-sitter-grammars/tree-sitter-lua",
    declarations: {
      function_declaration: FUNCTION,
      // A module's functions are assignments: `M.setup = function(config) … end`.
      assignment_statement: { type: "variable", refine: { function_definition: "function" } },
      variable_declaration: { type: "variable", refine: { function_definition: "function" } },
    },
    blocks: ["block", "table_constructor"],
  }),
  haskell: spec({
    grammar: "haskell",
    package: "tree-sitter-haskell",
    declarations: {
      function: FUNCTION,
      bind: FUNCTION,
      data_type: { type: "type" },
      newtype: { type: "type" },
      type_synomym: { type: "type" },
      type_family: { type: "type" },
      data_family: { type: "type" },
      class: { type: "interface", body: ["class_declarations"] },
      // Named after the type, as Rust's `impl Trait for Type` is: the class names many instances.
      instance: { type: "impl", body: ["instance_declarations"], name: "patterns" },
      deriving_instance: { type: "impl", name: "patterns" },
      foreign_import: FUNCTION,
      pattern_synonym: FUNCTION,
    },
    imports: ["header", "imports"],
    comments: ["comment", "haddock"],
    // A type signature, and pragmas such as INLINE, belong to the definition after them.
    prefixes: ["signature", "pragma"],
    // The file's declarations are one node; each is chunked as the file's own.
    flatten: ["declarations"],
    overloads: ["function"],
    // Its declarations are small and many (a signature and an equation): runs of them merge.
    // On the benchmark's three Haskell repositories (static model): .859 merged, .853 apart.
    mergeable: ["function", "type"],
    blocks: ["do", "local_binds", "alternatives", "class_declarations", "instance_declarations"],
  }),
};
