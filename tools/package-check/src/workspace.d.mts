// Types of workspace.mjs, for the tests.

export interface PackageJson {
  readonly name: string
  readonly version: string
  readonly private?: boolean
  readonly peerDependencies?: Readonly<Record<string, string>>
  readonly [key: string]: any
}

export interface Publishable {
  readonly name: string
  readonly version: string
  readonly dir: string
  readonly pkg: PackageJson
}

export interface InstallCommand {
  readonly manager: "npm" | "pnpm"
  readonly line: string
  readonly words: ReadonlyArray<string>
}

export declare const root: string
export declare const workspaceDirs: () => Array<string>
export declare const publishable: () => Array<Publishable>
export declare const effectLineOf: (pkg: {
  readonly peerDependencies?: Readonly<Record<string, string>>
}) => 3 | 4
export declare const tarballName: (p: { readonly name: string; readonly version: string }) => string
export declare const packAll: (dest: string) => Promise<Record<string, string>>
export declare const codeBlocks: (file: string, lang: string) => Array<string>
export declare const readmeExamples: (file: string) => Array<string>
export declare const installCommands: (file: string) => Array<InstallCommand>
export declare const packageOf: (word: string) => string | undefined
