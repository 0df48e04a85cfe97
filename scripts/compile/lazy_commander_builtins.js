// Bundled in place of two of commander's Node built-ins (see scripts/compile/bun_build.ts). Commander
// imports them at load, and Bun evaluates a large part of its Node layer for them (~4 ms of every
// start on the bench machine); commander only needs them to print help or to spawn an external
// subcommand, so they load on first use instead.
import process from "node:process";

export function stripVTControlCharacters(text) {
  return process.getBuiltinModule("node:util").stripVTControlCharacters(text);
}

export default {
  spawn: (...args) => process.getBuiltinModule("node:child_process").spawn(...args),
};
