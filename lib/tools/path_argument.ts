import { z } from "../shared/mod.ts";

/**
 * A path argument. A NUL ends the string at the system call (so `notes.md\0x` would touch
 * `notes.md`) and a newline or carriage return makes a name that reads as another file in every
 * listing, so both are refused before any check or operation sees the path.
 */
export function pathArgument() {
  return z.string().check(
    z.minLength(1),
    z.refine((path) => !/[\0\n\r]/.test(path), "must not contain a NUL, newline or carriage return"),
  );
}
