import js from "@eslint/js"
import tseslint from "typescript-eslint"

/**
 * The layers of every package: the modules at the top of `src` are its faces (documentation, types
 * and re-exports) and `src/internal/` holds the code they re-export, so a module of `internal/`
 * imports no face's value (its types it may, as they only describe). One block per depth below
 * `src`, as a relative path names a face by climbing to `src`.
 */
const layers = [1, 2, 3].map((depth) => ({
  files: [`{packages,apps,tools}/*/src/internal/${"*/".repeat(depth - 1)}*.ts`],
  rules: {
    "@typescript-eslint/no-restricted-imports": [
      "error",
      {
        patterns: [
          {
            regex: `^(\\.\\./){${depth}}[^./][^/]*$`,
            allowTypeImports: true,
            message:
              "A module of internal/ imports no face of its package (a module at the top of src/): import the internal module that holds the code, or only its types."
          }
        ]
      }
    ]
  }
}))

export default tseslint.config(
  {
    ignores: [
      "**/dist/**",
      "**/node_modules/**",
      "**/.turbo/**",
      "**/*.d.ts",
      "**/.stryker-tmp/**",
      "**/reports/**",
      "tools/connect-server/src/gen/**"
    ]
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }
      ],
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-namespace": "off",
      "@typescript-eslint/no-empty-object-type": "off",
      "require-yield": "off"
    }
  },
  ...layers
)
