import { childEnv } from "./child_env.ts";
import type { Platform } from "./platform.ts";
import { runCommand } from "./run_command.ts";

/** What a URL opener needs to see of the parent environment (a display, a session bus, $BROWSER). */
const OPENER_ENV = ["DISPLAY", "WAYLAND_DISPLAY", "XDG_RUNTIME_DIR", "DBUS_SESSION_BUS_ADDRESS", "BROWSER"];

export interface OpenBrowserOptions {
  /** The parent environment; default the process's. */
  env?: Record<string, string>;
  /** Operating system in Node's naming; default this machine's. */
  os?: string;
}

/** The system's URL opener, or undefined where no browser can be shown (a Linux box without a display). */
export function browserCommand(env: Record<string, string | undefined>, os: string): string[] | undefined {
  if (os === "darwin") return ["open"];
  if (os === "win32") return ["rundll32", "url.dll,FileProtocolHandler"];
  return env.DISPLAY || env.WAYLAND_DISPLAY ? ["xdg-open"] : undefined;
}

/**
 * Tries to show `url` in a browser; false when there is none or the opener failed. Never throws
 * (runCommand does not), and has no timeout: some openers stay until the browser exits, and killing
 * their process group would close the browser the person is logging in with.
 */
export async function openInBrowser(
  platform: Platform,
  url: URL,
  options: OpenBrowserOptions = {},
): Promise<boolean> {
  const env = options.env ?? platform.envAll();
  const command = browserCommand(env, options.os ?? platform.os);
  if (!command) return false;
  const result = await runCommand(platform, {
    cmd: [...command, url.href],
    env: childEnv(env, { passThrough: OPENER_ENV }),
  });
  return result.code === 0;
}
