/**
 * The recursive filter object of ListSatellites and ListIntegrationsMDM (decisions.md section 3).
 *
 * A filter is one condition or a group of filters, nestable to any depth:
 *
 * - condition: `{"field": {"key": "name", "operator": "equals", "value": {"@type": "type.googleapis.com/google.protobuf.StringValue", "value": "x"}}}`
 * - group: `{"group": {"operator": "and", "filters": [<filter>, ...]}}`
 *
 * @since 0.1.0
 */
export * from "./internal/filter.js"
