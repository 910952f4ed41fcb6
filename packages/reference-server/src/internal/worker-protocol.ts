/**
 * What `ReferenceServer.startInWorker` and its worker thread (`worker.ts`) tell each other: the
 * server's options in a form that crosses to another thread (a structured clone), and the
 * messages either side posts.
 */
import type { KnownIds } from "@data-access/schema"
import type { CollectionName, Json } from "./collections.js"
import type { LatitudeName } from "./latitudeSelection.js"

/**
 * Fixtures in their wire form, per collection. Decoded fixtures hold `Redacted` secrets and
 * `Timestamp`s, which a structured clone does not keep: they cross encoded and are decoded again
 * in the worker.
 */
export type WireFixtures = Readonly<Partial<Record<CollectionName, ReadonlyArray<Json>>>>

/** A server's options with their fixtures encoded (`O` is `ReferenceServer.Options`). */
export type WireOptions<O extends { readonly data?: unknown; readonly fixtures?: unknown }> = Omit<
  O,
  "data" | "fixtures"
> & {
  readonly data?: "demo" | "empty" | WireFixtures
  readonly fixtures?: WireFixtures
}

/** Why the server did not start (`ReferenceServer.StartError`'s reasons). */
export type StartReason = "Listen" | "Store" | "Fixtures" | "Latitude" | "Worker"

/** What the worker posts: once, the server listening or why it did not start. */
export type FromWorker =
  | {
      readonly _tag: "Started"
      readonly url: string
      readonly apiKeys: ReadonlyArray<string>
      readonly knownIds: KnownIds.KnownIds
      readonly latitude: ReadonlyArray<LatitudeName>
    }
  | {
      readonly _tag: "Failed"
      readonly reason: StartReason
      readonly message: string
      readonly packageName?: string
      /** The cause's text: the cause itself need not survive a structured clone. */
      readonly cause?: string
    }

/** What the caller posts: stop the server (after the requests in flight) and end the thread. */
export interface ToWorker {
  readonly _tag: "Close"
}
