/** A signal with a deadline, for one piece of work (a hook's model request, fetch or MCP call). */
export interface Deadline {
  /** Aborts when the parent does, or when the time is up (reason: a `TimeoutError`). */
  signal: AbortSignal;
  /** Whether the time ran out (as against the parent aborting). */
  timedOut(): boolean;
  /** The work is done: clears the timer and lets go of the parent. */
  end(): void;
}

/**
 * One controller and one timer, ended by the caller: `AbortSignal.any([parent,
 * AbortSignal.timeout(ms)])` made each prompt hook's model request 30 µs slower on the fixture
 * model (scripts/bench/hook_handlers.ts: a request of ~0.9 ms, where the figure allows 90 µs for
 * the whole hook), the composite signal's bookkeeping paid again by every abort listener the
 * request adds.
 */
export function deadline(parent: AbortSignal | undefined, ms: number): Deadline {
  const controller = new AbortController();
  let expired = false;
  const onParentAbort = () => controller.abort(parent!.reason);
  const timer = setTimeout(() => {
    expired = true;
    controller.abort(new DOMException("The operation timed out.", "TimeoutError"));
  }, ms);
  if (parent?.aborted) onParentAbort();
  else parent?.addEventListener("abort", onParentAbort, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => expired,
    end() {
      clearTimeout(timer);
      parent?.removeEventListener("abort", onParentAbort);
    },
  };
}
