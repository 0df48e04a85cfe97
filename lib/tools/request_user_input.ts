/**
 * `request_user_input` (#23 item 3), Codex's shape: questions with a few labelled choices, put to
 * the person in the interactive mode. Without a person (`exec`, a pipe) the call is refused with a
 * reason the model can act on. Hooks see it as Claude Code's AskUserQuestion.
 */
import { describeSchema, memo, z } from "../shared/mod.ts";
import { type BuiltinTool, builtinTool } from "./builtin_tool.ts";
import type { ToolEnv } from "./tool_env.ts";

const schema = memo(() =>
  z.strictObject({
    questions: describeSchema(
      z.array(z.strictObject({
        header: describeSchema(z.string(), "A short title for the question (a few words)"),
        id: describeSchema(z.string().check(z.minLength(1)), "A stable id for the answer, in snake_case"),
        options: describeSchema(
          z.array(z.strictObject({
            description: describeSchema(z.string(), "What picking this choice means"),
            label: describeSchema(z.string().check(z.minLength(1)), "The choice, in a few words"),
          })),
          "Two or three choices, the recommended one first; the user may also answer in their own words",
        ),
        question: describeSchema(z.string().check(z.minLength(1)), "The question, in one sentence"),
      })).check(z.minLength(1)),
      "The questions to ask, usually one",
    ),
  })
);
type Args = z.infer<ReturnType<typeof schema>>;

export function requestUserInputTool(env: ToolEnv): BuiltinTool {
  return builtinTool<Args>({
    name: "request_user_input",
    hookName: "AskUserQuestion",
    hookAliases: ["request_user_input"],
    description:
      "Ask the user one or a few short multiple-choice questions when a decision is theirs to make, and wait for the answers. Only works in an interactive session.",
    schema,
    parallel: false,
    approval: () => ({ kind: "none" }),
    async run(args, ctx) {
      const questioner = env.everyday.questioner;
      if (!questioner) {
        return {
          status: "error",
          output:
            "request_user_input is not available: no one is at a terminal to answer (trellis exec). Decide yourself and say what you assumed, or ask in your final answer.",
        };
      }
      const answers = await questioner.ask(args.questions, ctx.signal);
      if (ctx.signal.aborted) return { status: "aborted", output: "request_user_input: interrupted" };
      if (!answers) {
        return { status: "success", output: "The user dismissed the questions without answering." };
      }
      const byId = Object.fromEntries(answers.map((a) => [a.id, { answers: [a.answer] }]));
      return { status: "success", output: JSON.stringify({ answers: byId }) };
    },
    toHookInput: (args) => ({
      questions: args.questions.map((q) => ({
        question: q.question,
        header: q.header,
        options: q.options,
        multiSelect: false,
      })),
    }),
    fromHookInput: (input) => input,
  });
}
