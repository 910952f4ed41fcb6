import { describe, expect, it } from "@effect/vitest"
import * as DateTime from "effect/DateTime"
import * as Example from "../examples/readme.js"

describe("the README's examples", () => {
  it("show what they say they show", () => {
    expect(Example.isProtected).toBe(false)
    expect(Example.nextCursor).toBe("")
    expect(Example.createdAt).toBe("2024-05-01T10:00:00.123456789Z")
    expect(Example.text).toBe("2025-01-01T01:00:00.500Z")
    expect(Example.nanos).toBe(500_000_000)
    expect(Example.date.toISOString()).toBe("2025-01-01T01:00:00.500Z")
    expect(DateTime.formatIso(Example.dateTime)).toBe("2025-01-01T01:00:00.500Z")
    expect(Example.status).toBe(400)
    expect(Example.fallback).toBe("unavailable")
    expect(Example.retryable).toBe(true)
  })
})
