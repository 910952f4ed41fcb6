/**
 * The rules that one exchange does not decide; re-exported by `ContractRules`.
 */
import type { RuleId } from "../rules/index.js"

/**
 * The rules that no single exchange decides, each with what else it needs. Every other rule is
 * decided by one request and its answer, so a judge of observed traffic (the conformance proxy)
 * applies it; a test holds the two lists together.
 *
 * @since 0.3.0
 * @category rules
 */
export const severalExchanges: Readonly<Partial<Record<RuleId, string>>> = {
  "errors.unknown-id": "knowing that the id names nothing (a read of what exists)",
  "errors.unknown-reference": "knowing that the referenced id names nothing",
  "lists.unknown-cursor": "knowing that the server never gave the cursor",
  "wire.json-spellings": "the answer to the same request in its plainest spelling",
  "wire.zero-is-unset": "the answer to the same request with the field left out",
  "protocol.deadline":
    "the time the work takes without a deadline, to tell a late answer from a slow one",
  "updates.partial": "the object before the update",
  "updates.null-unchanged": "the object before the update",
  "updates.stored": "a later read",
  "updates.model":
    "the earlier answers that showed the object and the writes in flight meanwhile (the proxy and the HAR judge keep that model of the objects created through them)",
  "updates.updated-at": "the object's `updatedAt` before the update",
  "updates.apply": "a later read showing the change",
  "updates.false-applied": "a later read showing the change, as for `updates.apply`",
  "updates.listed":
    "Lists read after the update, searched, filtered and scoped by its old and new values",
  "echo.create-stored": "Lists and the Get read after the create",
  "echo.password-user": "knowing the user the request names (the fixtures' users)",
  "keys.known-key-id":
    "knowing that a key with that `keyId` exists (the fixtures' encryptionKeyIds)",
  "lists.walk-once": "every page of the walk",
  "lists.walk-complete": "every page of the walk and every item",
  "lists.next-cursor": "the next page",
  "lists.empty-page": "the next page, to see that no items follow",
  "search.case-insensitive": "every item, to see one left out",
  "search.fields": "every item, to see one left out",
  "filter.group-operator": "every item, to see one left out",
  "reads.stable": "a second read",
  "reads.list-agrees": "a List and a Get of the same object, one after the other"
}
