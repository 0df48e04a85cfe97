/** Session-start notice for handlers that are new or changed since the user last trusted them ("" if none). */
export function reviewNotice(needsReview: number): string {
  if (needsReview <= 0) return "";
  return `${needsReview} hook${needsReview === 1 ? "" : "s"} need${
    needsReview === 1 ? "s" : ""
  } review: trellis hooks list`;
}
