/**
 * Invalid requests derived from the request schemas: each mutation breaks exactly one rule of
 * the interface (a required field removed, a wrong JSON type, a string under its min length, a
 * number out of range, a value outside an enum, a pattern broken, a one-of with two variants...).
 *
 * Candidates come from the schema's wire shape (`SchemaWalk.shapeOf`: fields, the refinements of
 * each node and their JSON Schema annotations, literals, enums, unions, arrays), guided by the
 * valid body; each candidate is kept only when the schema itself rejects it, so the schema is the
 * oracle and no operation is listed by hand.
 *
 * @since 0.1.0
 */
export * from "./internal/mutations.js"
