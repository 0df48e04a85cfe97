/**
 * Lifecycle hooks (SPEC §5): discovery of every hook source (managed, /etc, user, trusted project,
 * Claude Code settings, `-c`, plugins), content trust by `sha256:` identity hash, Codex matchers, a
 * concurrent command runner that never throws, per-event output parsers, aggregation, output spill,
 * and the engine implementing the loop's `LifecycleHooks` port.
 *
 * @example
 * ```ts
 * import { createHookEngine, loadHooks, reviewNotice } from "./mod.ts";
 * import { loadConfig } from "../config/mod.ts";
 * import { discardEvents } from "../shared/mod.ts";
 * import { platform } from "../platform/mod.ts";
 *
 * const loaded = await loadConfig(platform.fs, { cwd: platform.cwd(), env: platform.env });
 * const { handlers, diagnostics, needsReview } = await loadHooks({ loaded, platform, pluginSources: [] });
 * const notice = reviewNotice(needsReview); // "2 hooks need review: trellis hooks list"
 * const hooks = createHookEngine({
 *   handlers,
 *   platform,
 *   events: discardEvents,
 *   home: loaded.paths.home,
 *   threadId: "thread-1",
 * });
 * ```
 * @module
 */
export { loadHooks, trustStatus } from "./load_hooks.ts";
export { readHooksFile } from "./hook_sources.ts";
export { SETTING_KEYS as HOOK_SETTING_KEYS } from "./parse_source.ts";
export type { LoadedHooks, LoadHooksOptions, PluginHookSource } from "./load_hooks.ts";
export type {
  DeclaredHandler,
  HandlerIdentity,
  HookHandlerInfo,
  HookHandlerType,
  HookOrigin,
  HookPluginContext,
  HookSourceKind,
  RewakeSettings,
  TrustStatus,
} from "./hook_handler.ts";
export { judgeIfRule, parseIfRule } from "./if_rule.ts";
export type { IfRule, IfRuleVerdict, RuleCall } from "./if_rule.ts";
export { createHookEngine } from "./hook_engine.ts";
export type { HookEngine, HookEngineOptions } from "./hook_engine.ts";
export type { BackgroundRun, HookRunEntry, HookRunRecord, HookRunStatus } from "./dispatcher.ts";
export { eventLabel, HOOK_EVENTS, isHookEvent } from "./hook_events.ts";
export type { HookEventName } from "./hook_events.ts";
export { compileMatcher, matcherMatches } from "./matcher.ts";
export type { CompiledMatcher } from "./matcher.ts";
export { hookTrustHash } from "./trust_hash.ts";
export { reviewNotice } from "./tool_messages.ts";
export { HOOK_TEXT_TOKEN_BUDGET, spillHookText } from "./output_spill.ts";
export { HOOK_OUTPUT_CAP_BYTES, runHookCommand } from "./command_runner.ts";
export type { HookCommandResult, RunHookOptions } from "./command_runner.ts";
export { interpretRun } from "./interpret_run.ts";
export type { HookEffect } from "./outputs/hook_effect.ts";
export { testHookEvent } from "./test_hook_event.ts";
export type { HookModelRequest, HookServices, McpToolAnswer } from "./handler_services.ts";
export { HTTP_ALLOWLIST_KEY, interpolateHeaders, urlAllowed } from "./http_runner.ts";
export { PROMPT_HOOK_INSTRUCTIONS, promptWithArguments } from "./prompt_runner.ts";
export { runHandler } from "./handler_runner.ts";
export { loadScopedHooks } from "./load_hooks.ts";
export type { ScopedHookSource } from "./load_hooks.ts";
export { OBSERVED_EVENTS } from "./hook_events.ts";
export type { SyntheticEventOptions } from "./test_hook_event.ts";
export { doctorHooks } from "./hook_doctor.ts";
export { writeHookState } from "./hook_state_edits.ts";
export type { HookStateChange } from "./hook_state_edits.ts";
export type { DoctorFinding, DoctorOptions } from "./hook_doctor.ts";
export { loadPermissionRules, permissionRules } from "./permission_rules.ts";
export type { LoadedPermissionRules, PermissionRuleEntry } from "./permission_rules.ts";
