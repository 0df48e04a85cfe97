/**
 * The plan tools (#23 item 3): Codex's `update_plan` (`plan[{step, status}]`, `explanation`) and
 * Claude Code's `TodoWrite` (`todos[{content, status, activeForm}]`). Both replace the whole plan
 * and report it as a `plan.updated` event, which the session shows live and turns into Codex's
 * `todo_list` item; hooks see both as TodoWrite with Claude's input shape.
 */
import { describeSchema, memo, z } from "../shared/mod.ts";
import type { ToolResult, ToolRunContext } from "../shared/mod.ts";
import { type BuiltinTool, builtinTool } from "./builtin_tool.ts";

const STATUSES = ["pending", "in_progress", "completed"] as const;
type StepStatus = (typeof STATUSES)[number];
interface PlanStep {
  step: string;
  status: StepStatus;
}

const updatePlanSchema = memo(() =>
  z.strictObject({
    explanation: describeSchema(z.optional(z.string()), "Why the plan changed, in a sentence (optional)"),
    plan: describeSchema(
      z.array(z.strictObject({
        step: describeSchema(z.string().check(z.minLength(1)), "What this step does"),
        status: describeSchema(z.enum(STATUSES), "pending, in_progress or completed"),
      })),
      "The whole plan, in order; at most one step in_progress",
    ),
  })
);
type UpdatePlanArgs = z.infer<ReturnType<typeof updatePlanSchema>>;

const todoWriteSchema = memo(() =>
  z.strictObject({
    todos: describeSchema(
      z.array(z.strictObject({
        content: describeSchema(z.string().check(z.minLength(1)), "The task, in the imperative"),
        status: z.enum(STATUSES),
        activeForm: describeSchema(
          z.string().check(z.minLength(1)),
          "The task as it is being done (shown while in progress)",
        ),
      })),
      "The whole todo list, replacing the previous one",
    ),
  })
);
type TodoWriteArgs = z.infer<ReturnType<typeof todoWriteSchema>>;

/** Codex's face. */
export function updatePlanTool(): BuiltinTool {
  return builtinTool<UpdatePlanArgs>({
    name: "update_plan",
    hookName: "TodoWrite",
    hookAliases: ["update_plan"],
    description:
      "Keep a short step-by-step plan for multi-step work and show it to the user. Send the whole plan each time; mark one step in_progress while you work on it and completed when done.",
    schema: updatePlanSchema,
    parallel: false,
    approval: () => ({ kind: "none" }),
    run: (args, ctx) => setPlan(args.plan, args.explanation, ctx),
    toHookInput: (args) => ({
      todos: args.plan.map((s) => ({ content: s.step, status: s.status, activeForm: s.step })),
    }),
    fromHookInput: (input) =>
      Array.isArray(input.todos)
        ? { plan: input.todos.map((t: Record<string, unknown>) => ({ step: t.content, status: t.status })) }
        : input,
  });
}

/** Claude Code's face. */
export function todoWriteTool(): BuiltinTool {
  return builtinTool<TodoWriteArgs>({
    name: "TodoWrite",
    hookName: "TodoWrite",
    description:
      "Track the tasks of multi-step work as a todo list the user can watch. Send the complete list on every call; keep exactly one task in_progress while working and mark tasks completed as soon as they are done.",
    schema: todoWriteSchema,
    parallel: false,
    approval: () => ({ kind: "none" }),
    run: (args, ctx) =>
      setPlan(
        args.todos.map((t) => ({
          step: t.status === "in_progress" ? t.activeForm : t.content,
          status: t.status,
        })),
        undefined,
        ctx,
      ),
    toHookInput: (args) => ({ todos: args.todos }),
    fromHookInput: (input) => input,
  });
}

function setPlan(
  plan: PlanStep[],
  explanation: string | undefined,
  ctx: ToolRunContext,
): Promise<ToolResult> {
  const active = plan.filter((s) => s.status === "in_progress").length;
  if (active > 1) {
    return Promise.resolve({
      status: "error",
      output: `Plan not updated: ${active} steps are in_progress; keep at most one in_progress at a time`,
    });
  }
  ctx.emit({
    type: "plan.updated",
    call_id: ctx.callId,
    ...(explanation ? { explanation } : {}),
    plan: plan.map((s) => ({ step: s.step, status: s.status })),
  });
  const done = plan.filter((s) => s.status === "completed").length;
  return Promise.resolve({ status: "success", output: `Plan updated (${done}/${plan.length} done)` });
}
