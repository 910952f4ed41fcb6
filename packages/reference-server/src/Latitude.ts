/**
 * The latitude switches: where decisions.md section 10 lets a faithful server choose, the
 * reference server makes one choice by default and the other with a switch on
 * (`ReferenceServer.start({ latitude: ["unique-names"] })`, `--latitude unique-names`). The
 * switches are the rows of `ContractRules.latitude` in `@data-access/schema`; the server stays
 * faithful under each of them and under all of them together.
 *
 * @since 0.2.0
 */
export * from "./internal/latitudeSelection.js"
