import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Tracer from "effect/Tracer"
import { ReferenceServer } from "../src/index.js"

/** Effect's own tracer, keeping every span it opens. */
const recording = Effect.map(Effect.tracer, (base) => {
  const spans: Array<Tracer.Span> = []
  const tracer = Tracer.make({
    span: (...args) => {
      const span = base.span(...args)
      spans.push(span)
      return span
    },
    context: base.context
  })
  return { spans, tracer }
})

const post = (url: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
  Effect.promise(() =>
    fetch(`${url}${path}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-api-key": ReferenceServer.DEFAULT_API_KEY,
        ...headers
      },
      body: JSON.stringify(body)
    }).then((r) => r.text().then(() => r.status))
  )

describe("tracing", () => {
  it.scoped(
    "tracing: true opens one server span per request, child of its traceparent, with the method, path and status",
    () =>
      Effect.gen(function* () {
        const { spans, tracer } = yield* recording
        const server = yield* ReferenceServer.start({ tracing: true }).pipe(
          Effect.withTracer(tracer)
        )
        const traceId = "4bf92f3577b34da6a3ce929d0e0e4736"
        const status = yield* post(
          server.url,
          "/core.v1.ResourceService/GetResource",
          { id: "resource_none" },
          { traceparent: `00-${traceId}-00f067aa0ba902b7-01` }
        )
        expect(status).toBe(404)
        const served = spans.filter((s) => s.name === "http.server POST")
        expect(served).toHaveLength(1)
        const span = served[0]!
        expect(span.kind).toBe("server")
        expect(span.traceId).toBe(traceId)
        expect(Option.map(span.parent, (p) => p.spanId)).toEqual(Option.some("00f067aa0ba902b7"))
        expect(span.attributes.get("http.request.method")).toBe("POST")
        expect(span.attributes.get("url.path")).toBe("/core.v1.ResourceService/GetResource")
        expect(span.attributes.get("http.response.status_code")).toBe(404)
        expect(span.status._tag).toBe("Ended")
      })
  )

  it.scoped("by default the server opens no span of its own", () =>
    Effect.gen(function* () {
      const { spans, tracer } = yield* recording
      const server = yield* ReferenceServer.start().pipe(Effect.withTracer(tracer))
      yield* post(server.url, "/core.v1.ResourceService/GetResource", { id: "resource_none" })
      expect(spans.filter((s) => s.name.startsWith("http.server"))).toEqual([])
    })
  )
})
