/** Spellings of the JSON media type other than the plainest, each served by connect-node. */
export const MEDIA_TYPE_SPELLINGS: readonly [string, ...Array<string>] = [
  "application/json; charset=utf-8",
  "application/json;charset=UTF-8",
  "Application/JSON"
]
