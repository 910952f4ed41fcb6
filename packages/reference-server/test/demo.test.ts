// Under the machine's Node only (scripts/node-lines): the demo data, pure.
import { describe, expect, it } from "@effect/vitest"
import { demoData } from "../src/internal/demo.js"
import { normalize } from "../src/internal/handlers.js"

// The server stores the demo data without normalizing it (ReferenceServer's seeding): it must be
// built valid, with every field written, in the order the schemas write them.
describe("demo data", () => {
  it("is in its normalized form", () => {
    for (const [collection, objects] of demoData()) {
      const normalized = objects.map((o) => normalize(collection, o))
      expect(normalized).toStrictEqual(objects)
      expect(JSON.stringify(normalized)).toBe(JSON.stringify(objects))
    }
  })
})
