import assert from "node:assert/strict";
import {
  allEverydayTools,
  createBuiltinTools,
  deriveBuiltinParameters,
  toolEnv,
} from "../../lib/tools/mod.ts";
import { BUILTIN_TOOL_PARAMETERS } from "../../lib/tools/builtin_parameters.generated.ts";
import { platform } from "../../lib/platform/mod.ts";
import type { PermissionProfile } from "../../lib/tools/mod.ts";

Deno.test("builtin_parameters.generated.ts matches the tools' zod schemas (else run `deno task gen`)", async () => {
  assert.deepEqual(
    BUILTIN_TOOL_PARAMETERS,
    await deriveBuiltinParameters(),
    "lib/tools/builtin_parameters.generated.ts is stale: run `deno task gen`",
  );
});

Deno.test("each built-in tool declares its generated parameters and still validates with zod", () => {
  const tools = createBuiltinTools({
    platform,
    profile: { workspace: "/w", writableRoots: ["/w"], readableRoots: [] } as unknown as PermissionProfile,
    sandbox: { available: false, reason: "test" },
  });
  // The default set; the generated file also holds the other faces' everyday tools (#23 item 3).
  const faces = [
    ...tools,
    ...allEverydayTools(
      toolEnv({ platform, profile: {} as PermissionProfile, sandbox: { available: false, reason: "test" } }),
    ),
  ];
  assert.deepEqual(new Set(faces.map((t) => t.name)), new Set(Object.keys(BUILTIN_TOOL_PARAMETERS)));
  for (const tool of tools) assert.equal(tool.parameters, BUILTIN_TOOL_PARAMETERS[tool.name]);
  const readFile = tools.find((t) => t.name === "read_file")!;
  assert.throws(() => readFile.parseArguments({ path: "" }), /path/);
  assert.deepEqual(readFile.parseArguments('{"path":"a.txt","limit":3}'), { path: "a.txt", limit: 3 });
});
