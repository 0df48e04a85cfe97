/**
 * Blocking work behind a promise-returning signature: its value, or its throw as a rejection, so a
 * caller that awaits or `.catch`es sees what an async function would give it. (An `async` function
 * without an `await` says the same, but reads as a mistake to the linter and to people.)
 */
export function settle<T>(run: () => T): Promise<T> {
  try {
    return Promise.resolve(run());
  } catch (error) {
    return Promise.reject(error);
  }
}
