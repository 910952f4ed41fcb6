/**
 * The `X-API-KEY` a request carries, named by mode: the run's key, none, an empty one, a made-up
 * one, or one a step from the run's key. The key itself is put in only at send time (http.ts).
 */
import { Secrets } from "@data-access/schema"

/** Which `X-API-KEY` header a request carries. */
export type KeyMode = "valid" | "missing" | "empty" | "wrong" | NearKeyMode

/** The wrong key sent by the auth check: a made-up value, never a real key. */
export const WRONG_KEY = "ct-not-a-valid-key-0000"

/**
 * Keys one step from the valid one, none of them a known key: with a character added, with its
 * last character taken away, with the case of its letters swapped. A server that compares a
 * prefix or ignores case takes one of them. They are secrets as much as the key is.
 */
export type NearKeyMode = "extended" | "shortened" | "recased"

export const NEAR_KEY_MODES: ReadonlyArray<NearKeyMode> = ["extended", "shortened", "recased"]

const swapCase = (s: string) =>
  s.replace(/[a-zA-Z]/g, (c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()))

/** The near key of `key` a mode sends, if the key has one (a short key is not shortened, a key without letters not recased). */
export const nearKey = (mode: NearKeyMode, key: string): string | undefined => {
  switch (mode) {
    case "extended":
      return `${key}x`
    case "shortened":
      // Still long enough to be scrubbed from every text.
      return key.length > Secrets.MIN_LENGTH ? key.slice(0, -1) : undefined
    case "recased": {
      const swapped = swapCase(key)
      return swapped === key ? undefined : swapped
    }
  }
}

/** The key and its near keys: the values no text of a run may print. */
export const keySecrets = (key: string): ReadonlyArray<string> => [
  key,
  ...NEAR_KEY_MODES.flatMap((m) => nearKey(m, key) ?? [])
]
