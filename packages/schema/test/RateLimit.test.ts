// Under the machine's Node only (scripts/node-lines): decoding and encoding by schema, pure data transforms.
import { describe, expect, it } from "@effect/vitest"
import { RateLimit } from "@data-access/schema"

const now = Date.UTC(2026, 0, 1) // 1767225600 s
const read = (headers: Record<string, string>) => (h: string) => headers[h]

describe("RateLimit", () => {
  it("the headers a server writes read back without a problem", () => {
    const written = RateLimit.headers(100, 7, now / 1000 + 30.2)
    expect(written).toEqual({
      "x-ratelimit-limit": "100",
      "x-ratelimit-remaining": "7",
      "x-ratelimit-reset": "1767225631"
    })
    expect(RateLimit.problems(read(written), now)).toEqual([])
    expect(RateLimit.headers(100, -3, 0)["x-ratelimit-remaining"]).toBe("0")
  })

  it("absent headers are not judged", () => {
    expect(RateLimit.problems(read({}), now)).toEqual([])
  })

  it("a reset in seconds to wait or in milliseconds is not a Unix time in seconds", () => {
    expect(RateLimit.problems(read({ "x-ratelimit-reset": "60" }), now)).toHaveLength(1)
    expect(
      RateLimit.problems(read({ "x-ratelimit-reset": String(now + 30_000) }), now)
    ).toHaveLength(1)
    expect(
      RateLimit.problems(read({ "x-ratelimit-reset": "Thu, 01 Jan 2026 00:00:30 GMT" }), now)
    ).toHaveLength(1)
    // A window that just ended, or one of a month, is a reset time.
    expect(
      RateLimit.problems(read({ "x-ratelimit-reset": String(now / 1000 - 120) }), now)
    ).toEqual([])
    expect(
      RateLimit.problems(read({ "x-ratelimit-reset": String(now / 1000 + 31 * 86400) }), now)
    ).toEqual([])
  })

  it("the limit and the calls remaining are whole numbers", () => {
    expect(
      RateLimit.problems(read({ "x-ratelimit-limit": "100", "x-ratelimit-remaining": "-1" }), now)
    ).toEqual(['x-ratelimit-remaining "-1" is not a whole number'])
    expect(RateLimit.problems(read({ "x-ratelimit-limit": "1e3" }), now)).toHaveLength(1)
  })
})
