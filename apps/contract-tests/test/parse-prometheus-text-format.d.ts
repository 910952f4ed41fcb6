// The package ships no types: its output is prom2json's.
declare module "parse-prometheus-text-format" {
  interface Sample {
    readonly value?: string
    readonly labels?: Readonly<Record<string, string>>
    /** Histograms: cumulative counts by upper bound. */
    readonly buckets?: Readonly<Record<string, string>>
    readonly count?: string
    readonly sum?: string
  }
  interface Family {
    readonly name: string
    readonly help: string
    readonly type: "COUNTER" | "GAUGE" | "HISTOGRAM" | "SUMMARY" | "UNTYPED"
    readonly metrics: ReadonlyArray<Sample>
  }
  const parse: (text: string) => ReadonlyArray<Family>
  export default parse
}
