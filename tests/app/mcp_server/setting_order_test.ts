import assert from "node:assert/strict";
import {
  type ApprovalPolicy,
  approvalsWithin,
  approvalWithin,
  SANDBOX_ORDER,
  sandboxWithin,
} from "../../../lib/app/mcp_server/setting_order.ts";

Deno.test("sandboxWithin(): a call may choose the operator's mode or a stricter one, never a looser one", () => {
  const allowed = SANDBOX_ORDER.map((operator) =>
    SANDBOX_ORDER.filter((call) => sandboxWithin(call, operator))
  );
  assert.deepEqual(allowed, [
    ["read-only"],
    ["read-only", "workspace-write"],
    ["read-only", "workspace-write", "danger-full-access"],
  ]);
});

Deno.test("approvalWithin(): no looser on what runs unasked nor on what can run once approved", () => {
  const policies: ApprovalPolicy[] = ["untrusted", "on-request", "on-failure", "never"];
  assert.deepEqual(Object.fromEntries(policies.map((p) => [p, approvalsWithin(p)])), {
    untrusted: ["untrusted"],
    "on-request": ["untrusted", "on-request", "never"],
    "on-failure": ["untrusted", "on-request", "on-failure", "never"],
    never: ["never"],
  });
  // The two neighbours of "never": the client could approve what never denies (untrusted), or a
  // failed command could be offered again outside the sandbox (on-failure).
  assert.equal(approvalWithin("untrusted", "never"), false);
  assert.equal(approvalWithin("on-failure", "never"), false);
  // And of "untrusted": never and on-request run unasked what untrusted asks about.
  assert.equal(approvalWithin("never", "untrusted"), false);
  assert.equal(approvalWithin("on-request", "untrusted"), false);
});
