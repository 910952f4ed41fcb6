import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { ReferenceServer } from "../src/index.js"
import { rpc, walk } from "./helpers.js"

const tempFile = Effect.acquireRelease(
  Effect.sync(() => {
    const dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "reference-server-"))
    return { dir, file: Path.join(dir, "store.sqlite") }
  }),
  ({ dir }) => Effect.sync(() => Fs.rmSync(dir, { recursive: true, force: true }))
)

describe("SQLite store", () => {
  it.scoped("data written survives a restart on the same file, read back identical", () =>
    Effect.gen(function* () {
      const { file } = yield* tempFile
      const store = { _tag: "Sqlite", filename: file } as const
      const first = yield* Effect.gen(function* () {
        const server = yield* ReferenceServer.start({ store })
        const created = yield* rpc(server, "CreatePermission", {
          name: "persisted",
          description: "kept on disk",
          code: "allow := true",
          status: "active"
        })
        expect(created.status).toBe(200)
        const updated = yield* rpc(server, "UpdateSatellite", {
          id: server.knownIds.satellites[0],
          name: "renamed-on-disk"
        })
        expect(updated.status).toBe(200)
        const concurrent = yield* Effect.forEach(
          server.knownIds.satellites.slice(1, 201),
          (id, i) => rpc(server, "UpdateSatellite", { id, name: `disk-${i}` }),
          {
            concurrency: 200
          }
        )
        for (const r of concurrent) expect(r.status).toBe(200)
        const satellites = yield* walk(server, "ListSatellites", { limit: 100 })
        const resource = yield* rpc(server, "GetResource", { id: server.knownIds.resources[2] })
        return {
          knownIds: server.knownIds,
          satellites: satellites.items,
          resource: resource.json,
          updated: updated.json
        }
      }).pipe(Effect.scoped)
      const second = yield* ReferenceServer.start({ store })
      expect(second.knownIds).toEqual(first.knownIds)
      const satellites = yield* walk(second, "ListSatellites", { limit: 100 })
      expect(satellites.items).toEqual(first.satellites)
      expect(satellites.items.filter((s) => String(s.name).startsWith("disk-")).length).toBe(200)
      expect(satellites.items.find((s) => s.id === first.knownIds.satellites[0])).toEqual(
        first.updated.satellite
      )
      const resource = yield* rpc(second, "GetResource", { id: first.knownIds.resources[2] })
      expect(resource.json).toEqual(first.resource)
    })
  )

  it.scoped("an empty store is seeded once; fixtures replace objects with the same id", () =>
    Effect.gen(function* () {
      const { file } = yield* tempFile
      const server = yield* ReferenceServer.start({
        store: { _tag: "Sqlite", filename: file },
        data: "empty"
      })
      expect(server.knownIds.satellites).toEqual([])
      const ids = yield* server.seed({
        spaces: [{ id: "space_one", name: "one", description: "", terminationProtection: false }]
      })
      expect(ids.spaces).toEqual(["space_one"])
    })
  )
})
