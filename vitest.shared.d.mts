// Types of vitest.shared.mjs, for the packages whose vitest.config.ts is type-checked.

export declare const packageTests: {
  readonly include: Array<string>
  readonly testTimeout: number
  readonly hookTimeout: number
  readonly isolate: boolean
}
