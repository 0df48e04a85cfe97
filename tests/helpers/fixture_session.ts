import { Session, type SessionOptions } from "../../lib/app/mod.ts";
import { loadConfig } from "../../lib/config/mod.ts";
import { noTtyApprover } from "../../lib/loop/mod.ts";
import { platform } from "../../lib/platform/mod.ts";
import type { TrellisEventBody } from "../../lib/shared/mod.ts";

/**
 * A Session against the fixture model server at `url`, opened as the app tests open one: the
 * `-c` flags every such test starts with (the fixture provider, no bundled skills; `noRetries`: a
 * failed request fails at once), then the test's own; every event collected in `events`.
 */
export async function openFixtureSession(options: {
  cwd: string;
  env: Record<string, string>;
  url: string;
  overrides?: string[];
  noRetries?: boolean;
  session?: Partial<Omit<SessionOptions, "platform" | "loaded" | "events">>;
}): Promise<{ session: Session; events: TrellisEventBody[] }> {
  const loaded = await loadConfig(platform.fs, {
    cwd: options.cwd,
    env: (name) => options.env[name],
    overrides: [
      "model_provider=fixture",
      `model_providers.fixture.base_url=${JSON.stringify(options.url)}`,
      ...(options.noRetries
        ? ["model_providers.fixture.request_max_retries=0", "model_providers.fixture.stream_max_retries=0"]
        : []),
      "skills.bundled.enabled=false",
      ...options.overrides ?? [],
    ],
  });
  const events: TrellisEventBody[] = [];
  const session = await Session.open({
    platform,
    loaded,
    events: (e) => events.push(e),
    approver: noTtyApprover,
    ...options.session,
  });
  return { session, events };
}
