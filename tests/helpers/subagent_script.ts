import type { FixtureScript } from "../../scripts/fixture_model_server.ts";

/** Token counts the child's two requests each report, so its total is known (80 in, 10 out). */
export const CHILD_USAGE = { input_tokens: 40, cached_tokens: 0, output_tokens: 5, reasoning_tokens: 0 };

/**
 * A parent that calls Claude Code's Agent tool once; the child runs `echo KESTREL` through the
 * shell tool and answers CHILD-ANSWER; the parent then says "all done". The children's requests
 * are answered by `replies`, matched on their last input item (#22 item 6 tests).
 */
export const ONE_CHILD_RUNS_A_COMMAND: FixtureScript = {
  steps: [
    {
      tool_calls: [{
        name: "Agent",
        arguments: { subagent_type: "general-purpose", description: "look around", prompt: "CHILD-1 go" },
      }],
    },
    { text: "all done" },
  ],
  replies: [
    { when_input_contains: "CHILD-ANSWER", text: "all done" },
    { when_input_contains: "function_call_output", text: "CHILD-ANSWER", usage: CHILD_USAGE },
    {
      when_input_contains: "CHILD-",
      tool_calls: [{ name: "shell", arguments: { command: "echo KESTREL" } }],
      usage: CHILD_USAGE,
    },
  ],
};
