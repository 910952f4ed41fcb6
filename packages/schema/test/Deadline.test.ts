// Under the machine's Node only (scripts/node-lines): Effect code on the test clock and the real one, the same on every Node line.
import { describe, expect, it } from "@effect/vitest"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Option from "effect/Option"
import * as TestClock from "effect/TestClock"
import * as Deadline from "../src/Deadline.js"

describe("Deadline.timeoutOption", () => {
  it.live("on the real clock: work that ends in time gives its value", () =>
    Effect.gen(function* () {
      const result = yield* Deadline.timeoutOption(Effect.as(Effect.sleep("5 millis"), 42), 30_000)
      expect(result).toEqual(Option.some(42))
    })
  )

  it.live("on the real clock: work that ends in time keeps its failure", () =>
    Effect.gen(function* () {
      const result = yield* Effect.flip(Deadline.timeoutOption(Effect.fail("boom"), 1000))
      expect(result).toBe("boom")
    })
  )

  it.live("on the real clock: late work gives None after the deadline and is interrupted", () =>
    Effect.gen(function* () {
      const interrupted = yield* Deferred.make<void>()
      const work = Effect.never.pipe(
        Effect.onInterrupt(() => Deferred.succeed(interrupted, undefined))
      )
      const started = Date.now()
      const result = yield* Deadline.timeoutOption(work, 50)
      const elapsed = Date.now() - started
      expect(result).toEqual(Option.none())
      expect(elapsed).toBeGreaterThanOrEqual(45)
      expect(yield* Deferred.isDone(interrupted)).toBe(true)
    })
  )

  it.live("on the real clock: interrupting the caller interrupts the work", () =>
    Effect.gen(function* () {
      const interrupted = yield* Deferred.make<void>()
      const running = yield* Deferred.make<void>()
      const work = Effect.zipRight(Deferred.succeed(running, undefined), Effect.never).pipe(
        Effect.onInterrupt(() => Deferred.succeed(interrupted, undefined))
      )
      const caller = yield* Effect.fork(Deadline.timeoutOption(work, 10_000))
      yield* Deferred.await(running)
      yield* Fiber.interrupt(caller)
      expect(yield* Deferred.isDone(interrupted)).toBe(true)
    })
  )

  it.effect("under a TestClock the deadline follows that clock", () =>
    Effect.gen(function* () {
      const fiber = yield* Effect.fork(Deadline.timeoutOption(Effect.never, 1000))
      yield* TestClock.adjust("999 millis")
      expect(fiber.unsafePoll()).toBeNull()
      yield* TestClock.adjust("1 millis")
      expect(yield* Fiber.join(fiber)).toEqual(Option.none())
    })
  )
})

describe("Deadline.timeoutFail", () => {
  it.live("on the real clock: work that ends in time gives its value or its own failure", () =>
    Effect.gen(function* () {
      expect(
        yield* Deadline.timeoutFail(Effect.as(Effect.sleep("5 millis"), 42), 1000, () => "late")
      ).toBe(42)
      expect(
        yield* Effect.flip(Deadline.timeoutFail(Effect.fail("boom"), 1000, () => "late"))
      ).toBe("boom")
    })
  )

  it.live("on the real clock: late work fails with onTimeout after it has been interrupted", () =>
    Effect.gen(function* () {
      const interrupted = yield* Deferred.make<void>()
      const work = Effect.never.pipe(
        Effect.onInterrupt(() => Deferred.succeed(interrupted, undefined))
      )
      const error = yield* Effect.flip(Deadline.timeoutFail(work, 30, () => "late"))
      expect(error).toBe("late")
      expect(yield* Deferred.isDone(interrupted)).toBe(true)
    })
  )

  it.live("the work runs in the caller's span", () =>
    Effect.gen(function* () {
      const inner = yield* Deadline.timeoutFail(Effect.currentSpan, 1000, () => "late").pipe(
        Effect.withSpan("caller")
      )
      expect(inner.name).toBe("caller")
    })
  )

  it.effect("under a TestClock the deadline follows that clock", () =>
    Effect.gen(function* () {
      const fiber = yield* Effect.fork(
        Effect.flip(Deadline.timeoutFail(Effect.never, 1000, () => "late"))
      )
      yield* TestClock.adjust("999 millis")
      expect(fiber.unsafePoll()).toBeNull()
      yield* TestClock.adjust("1 millis")
      expect(yield* Fiber.join(fiber)).toBe("late")
    })
  )
})

describe("Deadline.usesRealTimer", () => {
  it.live("is true on Effect's own clock for delays a timer keeps", () =>
    Effect.gen(function* () {
      const clock = yield* Effect.clock
      expect(Deadline.usesRealTimer(clock, 1000)).toBe(true)
      expect(Deadline.usesRealTimer(clock, 2 ** 31)).toBe(false)
    })
  )

  it.effect("is false under a TestClock", () =>
    Effect.gen(function* () {
      expect(Deadline.usesRealTimer(yield* Effect.clock, 1000)).toBe(false)
    })
  )
})
