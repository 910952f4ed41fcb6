export const LIMIT_HEADER = "x-ratelimit-limit"

export const REMAINING_HEADER = "x-ratelimit-remaining"

export const RESET_HEADER = "x-ratelimit-reset"

export const HEADERS: ReadonlyArray<string> = [LIMIT_HEADER, REMAINING_HEADER, RESET_HEADER]

export const headers = (
  limit: number,
  remaining: number,
  resetEpochSeconds: number
): Record<string, string> => ({
  [LIMIT_HEADER]: String(limit),
  [REMAINING_HEADER]: String(Math.max(0, remaining)),
  [RESET_HEADER]: String(Math.ceil(resetEpochSeconds))
})

const wholeNumber = /^\s*\d+\s*$/

const seconds = /^\s*\d+(\.\d+)?\s*$/

/** How far before the answer a reset time may lie (a window that just ended, clocks apart). */
const RESET_PAST_SECONDS = 3600

/** How far after it (a long window). */
const RESET_FUTURE_SECONDS = 400 * 86400

export const problems = (
  read: (header: string) => string | undefined,
  nowMillis: number
): ReadonlyArray<string> => {
  const out: Array<string> = []
  for (const header of [LIMIT_HEADER, REMAINING_HEADER]) {
    const value = read(header)
    if (value !== undefined && !wholeNumber.test(value))
      out.push(`${header} ${JSON.stringify(value.slice(0, 40))} is not a whole number`)
  }
  const reset = read(RESET_HEADER)
  if (reset !== undefined) {
    const now = nowMillis / 1000
    if (!seconds.test(reset))
      out.push(`${RESET_HEADER} ${JSON.stringify(reset.slice(0, 40))} is not a number of seconds`)
    else if (
      Number(reset) < now - RESET_PAST_SECONDS ||
      Number(reset) > now + RESET_FUTURE_SECONDS
    ) {
      out.push(
        `${RESET_HEADER} ${reset.trim()} is not a Unix time in seconds near the answer's (${Math.floor(now)})`
      )
    }
  }
  return out
}
