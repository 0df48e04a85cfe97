/**
 * Issue #21 item 15: bytes of MCP tool declarations' parameters as sent (compactSchema) against the
 * same schemas verbatim (what Trellis sent before), on generated schemas in the shapes public
 * servers publish (scripts/bench/_schema_shapes.ts). Target: the corpus at ≤ 0.8× verbatim.
 * `deno task bench mcp_schemas` runs only this section.
 */
import { compactSchema } from "../../lib/mcp/schema_compact.ts";
import { schemaCorpus } from "./_schema_shapes.ts";

const TARGET = 0.8;

export function bench() {
  const rows = [];
  let before = 0;
  let after = 0;
  for (const { shape, schemas } of schemaCorpus()) {
    const b = schemas.reduce((sum, s) => sum + JSON.stringify(s).length, 0);
    const a = schemas.reduce((sum, s) => sum + JSON.stringify(compactSchema(s)).length, 0);
    before += b;
    after += a;
    rows.push({
      name: `${shape}: ${schemas.length} tools, ${(b / 1024).toFixed(1)} KB verbatim → ${
        (a / 1024).toFixed(1)
      } KB`,
      value: a / b,
      unit: "x",
      target: "reference: verbatim",
      pass: true,
    });
  }
  rows.push({
    name: `corpus: ${(before / 1024).toFixed(1)} KB verbatim → ${(after / 1024).toFixed(1)} KB sent`,
    value: after / before,
    unit: "x",
    target: `<= ${TARGET}`,
    pass: after / before <= TARGET,
  });
  return rows;
}

if (import.meta.main) console.log(bench());
