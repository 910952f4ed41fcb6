/**
 * The filter language of the List requests (operators, `StringValue`), generated from
 * `@data-access/schema/Filter`. The filter schemas of each List request are in `Requests`.
 *
 * @since 0.1.0
 */
export * from "./generated/Filter.js"
