/**
 * Tool input schemas in the shapes public MCP servers publish (issue #21 item 15), generated here —
 * written for this bench, not copied from any server. Each generator reproduces one way real servers
 * build their schemas:
 *   - openapi_defs: an OpenAPI converter (notion's) that copies every component schema into every
 *     tool's `$defs`, each tool referencing a few of them;
 *   - go_flat: hand-written flat schemas (github's Go server): descriptions, enums, bounds, defaults;
 *   - pydantic: Python servers (FastMCP, mcp-server-git): a `title` on every property repeating its
 *     name, optional fields as `anyOf [T, null]` with `default: null`, models under `$defs`;
 *   - zod: TypeScript servers through zod-to-json-schema: `$schema`, `additionalProperties: false`;
 *   - openapi_inline: converters that inline components instead, so one filter or pagination object
 *     is repeated verbatim in several properties of one tool.
 */

type Json = Record<string, unknown>;
export interface ShapeCorpus {
  shape: string;
  schemas: Json[];
}

const words = ["page", "block", "database", "user", "comment", "issue", "file", "project", "branch", "label"];
const sentence = (i: number, n = 14) =>
  Array.from({ length: n }, (_, k) => words[(i * 7 + k * 3) % words.length]).join(" ") + ".";

function openapiDefs(): Json[] {
  const components: Json = {};
  for (let c = 0; c < 5; c++) {
    components[`component${c}Request`] = {
      type: "object",
      description: `Component ${c}: ${sentence(c, 12)}`,
      properties: Object.fromEntries(Array.from({ length: 4 }, (_, p) => [
        `field_${p}`,
        p % 3 === 0
          ? { type: "string", format: p === 0 ? "uuid" : "date-time", description: sentence(c + p) }
          : p % 3 === 1
          ? {
            type: "string",
            enum: ["default", "gray", "brown", "orange", "yellow", "green"],
            default: "default",
          }
          : { type: "array", items: { type: "string" }, maxItems: 100, description: sentence(c * p) },
      ])),
      required: ["field_0"],
      additionalProperties: true,
    };
  }
  return Array.from({ length: 19 }, (_, t) => ({
    type: "object",
    properties: {
      [`${words[t % words.length]}_id`]: {
        type: "string",
        format: "uuid",
        description: `Identifier: ${sentence(t)}`,
      },
      body: { $ref: `#/$defs/component${t % 5}Request` },
      ...(t % 3 === 0 ? { parent: { $ref: `#/$defs/component${(t + 3) % 5}Request` } } : {}),
      page_size: { type: "integer", minimum: 1, maximum: 100, default: 100, description: "Page size" },
    },
    required: [`${words[t % words.length]}_id`],
    $defs: structuredClone(components),
  }));
}

function goFlat(): Json[] {
  return Array.from({ length: 120 }, (_, t) => ({
    type: "object",
    properties: {
      owner: { type: "string", description: "Repository owner" },
      repo: { type: "string", description: "Repository name" },
      [`${words[t % words.length]}_number`]: { type: "number", description: sentence(t, 10), minimum: 1 },
      state: {
        type: "string",
        enum: ["open", "closed", "all"],
        description: "Filter by state",
        default: "open",
      },
      perPage: { type: "number", minimum: 1, maximum: 100, description: "Results per page for pagination" },
      page: { type: "number", minimum: 1, description: "Page number for pagination (min 1)" },
      body: { type: "string", description: sentence(t + 3, 40) },
    },
    required: ["owner", "repo"],
  }));
}

function pydantic(): Json[] {
  const titled = (name: string) => name.split("_").map((w) => w[0].toUpperCase() + w.slice(1)).join(" ");
  return Array.from({ length: 54 }, (_, t) => {
    const props: Json = {};
    for (
      const name of ["repo_path", "branch_name", "max_count", "start_timestamp", "end_timestamp", "target"]
    ) {
      props[name] = name.endsWith("path")
        ? { title: titled(name), type: "string", description: sentence(t) }
        : {
          anyOf: [{ type: name.startsWith("max") ? "integer" : "string" }, { type: "null" }],
          default: null,
          title: titled(name),
        };
    }
    props.options = { $ref: "#/$defs/LogOptions" };
    return {
      $defs: {
        LogOptions: {
          title: "LogOptions",
          type: "object",
          properties: {
            follow_renames: { title: "Follow Renames", type: "boolean", default: false },
            date_format: { title: "Date Format", type: "string", default: "iso" },
          },
        },
        DiffOptions: {
          title: "DiffOptions",
          type: "object",
          properties: { context_lines: { title: "Context Lines", type: "integer", default: 3, minimum: 0 } },
        },
      },
      properties: props,
      required: ["repo_path"],
      title: `Git${titled(words[t % words.length]).replace(" ", "")}Arguments`,
      type: "object",
    };
  });
}

function zod(): Json[] {
  return Array.from({ length: 120 }, (_, t) => ({
    type: "object",
    properties: {
      path: { type: "string", description: `Path: ${sentence(t, 8)}` },
      edits: {
        type: "array",
        items: {
          type: "object",
          properties: {
            oldText: { type: "string", description: "Text to search for - must match exactly" },
            newText: { type: "string", description: "Text to replace with" },
          },
          required: ["oldText", "newText"],
          additionalProperties: false,
        },
      },
      dryRun: { type: "boolean", default: false, description: "Preview changes using git-style diff format" },
      excludePatterns: { type: "array", items: { type: "string" }, default: [] },
    },
    required: ["path"],
    additionalProperties: false,
    $schema: "http://json-schema.org/draft-07/schema#",
  }));
}

function openapiInline(): Json[] {
  const filter = (i: number) => ({
    type: "object",
    description: "A filter on one property of the records",
    properties: {
      property: { type: "string", description: "The property name to filter on" },
      operator: {
        type: "string",
        enum: [
          "EQ",
          "NEQ",
          "LT",
          "LTE",
          "GT",
          "GTE",
          "BETWEEN",
          "IN",
          "NOT_IN",
          "HAS_PROPERTY",
          "CONTAINS_TOKEN",
        ],
      },
      value: { type: "string", description: "The value to compare against" },
      highValue: { type: "string", description: "The upper bound for BETWEEN" },
    },
    required: ["property", "operator"],
    ...(i < 0 ? {} : {}),
  });
  const paging = {
    type: "object",
    properties: {
      limit: { type: "integer", minimum: 1, maximum: 200, default: 10, description: "Results per page" },
      after: {
        type: "string",
        description: "The paging cursor token of the last successfully read resource",
      },
    },
  };
  return Array.from({ length: 30 }, (_, t) => ({
    type: "object",
    properties: {
      objectType: { type: "string", description: sentence(t, 8) },
      filterGroups: {
        type: "array",
        maxItems: 5,
        items: { type: "object", properties: { filters: { type: "array", items: filter(t), maxItems: 6 } } },
      },
      orFilters: { type: "array", items: filter(t) },
      andFilters: { type: "array", items: filter(t) },
      paging,
      associationsPaging: structuredClone(paging),
    },
    required: ["objectType"],
  }));
}

export function schemaCorpus(): ShapeCorpus[] {
  return [
    { shape: "openapi_defs (notion-like)", schemas: openapiDefs() },
    { shape: "go_flat (github-like)", schemas: goFlat() },
    { shape: "pydantic (python servers)", schemas: pydantic() },
    { shape: "zod (typescript servers)", schemas: zod() },
    { shape: "openapi_inline (hubspot-like)", schemas: openapiInline() },
  ];
}
