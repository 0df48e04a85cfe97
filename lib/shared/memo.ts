/**
 * A value built on first use, then kept. For zod schemas above all: in the compiled binary, building
 * schemas at module load costs start-up time for every command, whether it parses with them or not.
 */
export function memo<T>(build: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= build());
}
