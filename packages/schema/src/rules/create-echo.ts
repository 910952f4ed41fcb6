/**
 * The check `create-echo` and the rules it tests, each quoted from the documents.
 *
 * @since 0.5.0
 */
import { check, d, i } from "../internal/ruleText.js"

/**
 * `create-echo`: its meaning, severity and rules.
 *
 * @since 0.5.0
 * @category rules
 */
export const createEcho = check({
  id: "create-echo",
  meaning:
    "creates return the complete object made from what was sent (the linked identity and native user included, `createdAt` set, a password for the user named), and later reads (the Lists of its kind, its Get) show that object",
  severity: "critical",
  rules: [
    {
      id: "echo.create",
      must: "A create returns the complete object, with the values it was sent.",
      source: i(
        "Endpoints",
        "Create and update responses return the complete object wrapped under the key shown in the table."
      )
    },
    {
      id: "echo.identity-group",
      must: "CreateNativeUserIdentityLink with `identityType: group` returns the linked group.",
      source: d(
        "6. Request fields the interface does not show",
        "The response of CreateNativeUserIdentityLink names the linked identity: `group` when `identityType` is `group`"
      )
    },
    {
      id: "echo.create-complete",
      must: "A create's response is the complete object: it carries the fields the server sets, `createdAt` where the object has one.",
      source: i(
        "Endpoints",
        "Create and update responses return the complete object wrapped under the key shown in the table."
      )
    },
    {
      id: "echo.create-zero-values",
      must: 'A create\'s response has the zero value (`false`, `""`, `0`) in each scalar field of the object that the request left out: a reader of a proto3 message, the server reading a request too, treats an absent field as its zero value (not judged: the request enums a server may default, section 10; ids naming other objects; the variants of a one-of; secrets).',
      source: d(
        "1. Wire rules (all operations)",
        "Readers treat an absent field as its zero value."
      )
    },
    {
      id: "echo.create-references",
      must: "A create returns the objects its sent ids name: a sent `<x>Id` that the object holds only as its nested `<x>` (the `nativeUser` of a native user identity link) comes back as that object, with that id; the nested `<x>` beside a sent `<x>Id` the object holds too (a connector's `space`) is the object with that id, or left out.",
      source: i(
        "Endpoints",
        "Create and update responses return the complete object wrapped under the key shown in the table."
      )
    },
    {
      id: "echo.password-user",
      must: "CreateHumanUserPassword returns the password of the user its request names: `username` is that user's username, whichever of `email`, `username` or `id` named it.",
      source: d(
        "6. Request fields the interface does not show",
        "exactly one of `email`, `username`, `id` (the three variants)."
      )
    },
    {
      id: "echo.create-stored",
      must: "What a create returns is what later reads show: the Lists of its kind hold it (found by its id, equal to what the create returned, zero values and secret fields aside), their `search` and `filter` by its name find it, and its Get returns it.",
      source: i(
        "Endpoints",
        "Create and update responses return the complete object wrapped under the key shown in the table."
      )
    }
  ]
})
