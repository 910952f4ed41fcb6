/* global process, console */
// The API reference, generated from the JSDoc of the published packages' declarations
// (dist/*.d.ts, so a build comes first: `pnpm docs:generate` does both).
//
//   node src/api-doc.mjs [outDir]    writes <outDir>/<package>/<Module>.md and <outDir>/README.md
//                                   (default: docs/api, which is not committed: regenerate it)
//
// `modules()` is also what the tests read: every public module, its doc, its exports (name,
// kind, signature, description, @since, @category) and its `@example` blocks.
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs"
import { dirname, join, relative } from "node:path"
import { pathToFileURL } from "node:url"
import ts from "typescript"
import { publishable, root } from "./workspace.mjs"

const tagValue = (doc, tag) =>
  [...doc.matchAll(new RegExp(`(?:^|\\s)@${tag}[ \\t]+([^@\\n]*)`, "g"))].map((m) => m[1].trim())
/** A JSDoc comment's text without the comment markers. */
const commentText = (raw) =>
  raw
    .replace(/^\/\*\*\s?/, "")
    .replace(/\s*\*\/$/, "")
    .split("\n")
    .map((l) => l.replace(/^\s*\* ?/, ""))
    .join("\n")
    .trim()
/** The description: the text before the first block tag. */
const description = (doc) => doc.split(/^@/m)[0].trim()
/** The ```ts blocks of the `@example` tags. */
const examples = (doc) =>
  doc
    .split(/^(?=@)/m)
    .filter((part) => part.startsWith("@example"))
    .flatMap((part) => [...part.matchAll(/```(?:ts|typescript)\n([\s\S]*?)```/g)].map((m) => m[1]))

const kindOf = (node) =>
  ts.isFunctionDeclaration(node)
    ? "function"
    : ts.isInterfaceDeclaration(node)
      ? "interface"
      : ts.isTypeAliasDeclaration(node)
        ? "type"
        : ts.isClassDeclaration(node)
          ? "class"
          : ts.isVariableStatement(node)
            ? "const"
            : ts.isModuleDeclaration(node)
              ? "namespace"
              : ts.isEnumDeclaration(node)
                ? "enum"
                : ts.isExportDeclaration(node)
                  ? "re-export"
                  : undefined

const nameOf = (node) =>
  ts.isVariableStatement(node)
    ? node.declarationList.declarations.map((d) => d.name.getText()).join(", ")
    : ts.isExportDeclaration(node)
      ? node.exportClause
        ? node.exportClause.getText()
        : `* from ${node.moduleSpecifier?.getText()}`
      : (node.name?.getText() ?? "default")

/**
 * One module's documentation: the module comment from its source (tsc may drop it from the
 * declarations), the exports from its declaration file.
 */
const readModule = (file, sourceFile) => {
  const moduleComment = /^\s*\/\*\*[\s\S]*?\*\//.exec(readFileSync(sourceFile, "utf8"))
  const moduleDoc = moduleComment ? commentText(moduleComment[0].trim()) : ""
  return {
    doc: moduleDoc,
    description: description(moduleDoc),
    since: tagValue(moduleDoc, "since")[0],
    examples: examples(moduleDoc),
    exports: exportsOf(file)
  }
}

/** The declarations an `export { ... } from "./internal/..."` names, read from that file. */
const internalNamed = (file, node) => {
  if (
    !ts.isExportDeclaration(node) ||
    !node.exportClause ||
    !ts.isNamedExports(node.exportClause) ||
    !node.moduleSpecifier ||
    !ts.isStringLiteral(node.moduleSpecifier) ||
    !node.moduleSpecifier.text.startsWith("./internal/")
  )
    return undefined
  const target = exportsOf(join(dirname(file), node.moduleSpecifier.text.replace(/\.js$/, ".d.ts")))
  return node.exportClause.elements.map((element) => {
    const found = target.find((e) => e.name === (element.propertyName ?? element.name).text)
    if (!found) throw new Error(`${file}: ${element.getText()} is not declared in its module`)
    return { ...found, name: element.name.text }
  })
}

/**
 * The exports of a declaration file. `export * from "./internal/x.js"` (a module written once for
 * both Effect lines, re-exported whole) is followed into that file, so its exports are documented
 * and checked as the module's own; a re-export of an AST-generated file (`generated/X.js`, named
 * schemas whose documentation is the Effect 3 package's) is listed as a re-export.
 */
const exportsOf = (file) => {
  const text = readFileSync(file, "utf8")
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true)
  const first = /^\/\*\*[\s\S]*?\*\//.exec(text)
  const exports = []
  for (const node of source.statements) {
    if (
      ts.isExportDeclaration(node) &&
      !node.exportClause &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      const target = join(dirname(file), node.moduleSpecifier.text.replace(/\.js$/, ".d.ts"))
      if (
        node.moduleSpecifier.text.startsWith(".") &&
        !/[\\/]generated[\\/][^\\/]+\.d\.ts$/.test(target)
      ) {
        exports.push(...exportsOf(target))
        continue
      }
    }
    const exported =
      ts.isExportDeclaration(node) ||
      ts.getCombinedModifierFlags(node) & ts.ModifierFlags.Export ||
      node.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)
    const kind = kindOf(node)
    if (!exported || !kind) continue
    // `export {}` (a module marker tsc writes) exports nothing
    if (
      ts.isExportDeclaration(node) &&
      !node.moduleSpecifier &&
      node.exportClause &&
      ts.isNamedExports(node.exportClause) &&
      node.exportClause.elements.length === 0
    )
      continue
    const ranges = ts.getLeadingCommentRanges(text, node.pos) ?? []
    const jsdoc = ranges.filter((r) => text.slice(r.pos, r.pos + 3) === "/**").at(-1)
    const doc =
      jsdoc &&
      !(first && jsdoc.pos === 0 && source.statements[0] === node && ts.isImportDeclaration(node))
        ? commentText(text.slice(jsdoc.pos, jsdoc.end))
        : ""
    const signature = text.slice(node.getStart(source), node.end).trim()
    // `export { X } from "./internal/x.js"` (a class whose code is internal) is documented as the
    // declarations it names; the face's comment is that of a single one
    const named = internalNamed(file, node)
    if (named) {
      exports.push(
        ...(named.length === 1 && doc
          ? [
              {
                ...named[0],
                description: description(doc),
                since: tagValue(doc, "since")[0],
                category: tagValue(doc, "category")[0],
                examples: examples(doc)
              }
            ]
          : named)
      )
      continue
    }
    exports.push({
      name: nameOf(node),
      kind,
      signature,
      description: description(doc),
      since: tagValue(doc, "since")[0],
      category: tagValue(doc, "category")[0],
      examples: examples(doc)
    })
  }
  return exports
}

/** Every public module of every published package: dist/<Module>.d.ts but index, bin, internal. */
export const modules = () =>
  publishable().flatMap((p) =>
    readdirSync(join(p.dir, "dist"))
      .filter((f) => /^[A-Za-z0-9]+\.d\.ts$/.test(f) && f !== "index.d.ts" && f !== "bin.d.ts")
      .sort()
      .map((f) => ({
        package: p.name,
        version: p.version,
        dir: p.dir,
        module: f.replace(/\.d\.ts$/, ""),
        file: join(p.dir, "dist", f),
        ...readModule(join(p.dir, "dist", f), join(p.dir, "src", f.replace(/\.d\.ts$/, ".ts")))
      }))
  )

const fence = (code) => ["```ts", code.trimEnd(), "```"]

const renderModule = (m) => {
  const lines = [
    `# ${m.package}/${m.module}`,
    "",
    `\`import { ${m.module} } from "${m.package}"\` or \`import * as ${m.module} from "${m.package}/${m.module}"\``,
    ""
  ]
  if (m.description) lines.push(m.description, "")
  for (const e of m.examples) lines.push("**Example**", "", ...fence(e), "")
  const byCategory = new Map()
  for (const e of m.exports) {
    const c = e.category ?? (e.kind === "re-export" ? "re-exports" : "uncategorized")
    byCategory.set(c, [...(byCategory.get(c) ?? []), e])
  }
  const categories = [...byCategory.keys()].sort()
  if (categories.length > 1) {
    lines.push("## Contents", "")
    for (const c of categories)
      lines.push(
        `- ${c}: ${byCategory
          .get(c)
          .map((e) => `\`${e.name}\``)
          .join(", ")}`
      )
    lines.push("")
  }
  for (const c of categories) {
    lines.push(`## ${c}`, "")
    for (const e of byCategory.get(c).sort((a, b) => a.name.localeCompare(b.name))) {
      lines.push(`### ${e.name}`, "")
      if (e.description) lines.push(e.description, "")
      lines.push(...fence(e.signature), "")
      for (const ex of e.examples) lines.push("**Example**", "", ...fence(ex), "")
      if (e.since) lines.push(`Added in v${e.since}`, "")
    }
  }
  return lines.join("\n")
}

/** Writes the reference to `outDir`; returns the files written (relative to outDir). */
export const generate = (outDir) => {
  rmSync(outDir, { recursive: true, force: true })
  const all = modules()
  const written = []
  const index = [
    "# API reference",
    "",
    "Generated by `pnpm docs:generate` (tools/package-check/src/api-doc.mjs) from the JSDoc of each published",
    "module's declarations. Not committed: run `pnpm docs:generate` to produce it.",
    ""
  ]
  for (const p of publishable()) {
    const ms = all.filter((m) => m.package === p.name)
    index.push(`## ${p.name}`, "")
    for (const m of ms) {
      const rel = join(p.name.replace(/^@data-access\//, ""), `${m.module}.md`)
      mkdirSync(join(outDir, p.name.replace(/^@data-access\//, "")), { recursive: true })
      writeFileSync(join(outDir, rel), renderModule(m))
      written.push(rel)
      index.push(`- [${m.module}](${rel}): ${m.description.split(/\n\n/)[0].replace(/\n/g, " ")}`)
    }
    index.push("")
  }
  writeFileSync(join(outDir, "README.md"), index.join("\n"))
  written.push("README.md")
  return written
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const outDir = process.argv[2] ?? join(root, "docs/api")
  const files = generate(outDir)
  console.error(`wrote ${files.length} files to ${relative(process.cwd(), outDir) || outDir}`)
}
