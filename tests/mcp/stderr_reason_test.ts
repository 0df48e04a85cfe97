import assert from "node:assert/strict";
import { stderrReason } from "../../lib/mcp/stderr_summary.ts";

// Unit-level companion of tests/mcp/published_servers_test.ts (#21 item 14): other runtimes' deaths.
Deno.test("stderrReason() picks the line that says why a server died", () => {
  assert.equal(
    stderrReason(
      "node:internal/modules/cjs/loader:1228\n  throw err;\n  ^\n\nError: Cannot find module '/x/y.js'\n" +
        "    at Module._resolveFilename (node:internal/modules/cjs/loader:1225:15) {\n  code: 'MODULE_NOT_FOUND'\n}\n\nNode.js v20.1.0\n",
    ),
    "Error: Cannot find module '/x/y.js'",
  );
  assert.equal(
    stderrReason(
      "Traceback (most recent call last):\n  File \"server.py\", line 1, in <module>\n    import mcp\nModuleNotFoundError: No module named 'mcp'\n",
    ),
    "ModuleNotFoundError: No module named 'mcp'",
  );
  assert.equal(
    stderrReason("npm ERR! code E404\nnpm ERR! 404 Not Found - GET https://registry\n"),
    "npm ERR! code E404",
  );
  // No error line: the last line that is not a frame (never "Node.js vNN" or "    at …").
  assert.equal(
    stderrReason("starting\nlistening on stdio\n    at main (x.js:1:2)\n\nNode.js v22.0.0\n"),
    "listening on stdio",
  );
  assert.equal(stderrReason(""), undefined);
});
