/**
 * The contract checks: one id per check, its one-line meaning and its severity. The catalogue is
 * part of the contract in `@data-access/schema` (the reference server's violation catalogue names
 * the same ids); this module re-exports it.
 *
 * @since 0.1.0
 */

/**
 * @since 0.1.0
 * @category checks
 */
export * from "@data-access/schema/ContractChecks"
