// Under the machine's Node only (scripts/node-lines): decoding and encoding by schema, pure data transforms.
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as KnownIds from "../src/KnownIds.js"

describe("KnownIds", () => {
  it.effect("reads a fixtures document; absent lists are empty", () =>
    Effect.gen(function* () {
      const ids = yield* KnownIds.decodeJson(
        JSON.stringify({
          resources: ["resource_1"],
          users: [{ id: "user_1", email: "a@b.c", username: "alice" }],
          encryptionKeyIds: ["arn:aws:kms:key/1"],
          somethingNew: ["x"]
        })
      )
      expect(ids.resources).toEqual(["resource_1"])
      expect(ids.users[0]?.username).toBe("alice")
      expect(ids.encryptionKeyIds).toEqual(["arn:aws:kms:key/1"])
      expect(ids.satellites).toEqual([])
      expect(ids.mdmIntegrations).toEqual([])
    })
  )

  it.effect("rejects an empty id, a user without email, and text that is not JSON", () =>
    Effect.gen(function* () {
      for (const text of [
        `{"resources": [""]}`,
        `{"users": [{"id": "u", "username": "a"}]}`,
        `{resources: []}`
      ]) {
        const result = yield* Effect.either(KnownIds.decodeJson(text))
        expect(Either.isLeft(result), text).toBe(true)
      }
    })
  )
})
