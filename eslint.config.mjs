// ESLint: Next.js's rules (core web vitals: images, links, scripts, React
// hooks, jsx-a11y) and typescript-eslint's recommended set, then
// eslint-config-prettier to leave layout to Prettier (`npm run format`).
import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";
import prettier from "eslint-config-prettier/flat";

export default defineConfig([
  ...nextVitals,
  ...nextTypescript,
  prettier,
  {
    rules: {
      // A leading underscore marks what is unused on purpose: a rest
      // destructuring's left-out fields, a callback's unused argument.
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
    },
  },
  {
    // Tests read answers as the wire gives them (`body.error.code`); the
    // declared response schemas check their shapes (test/api/declared-response.ts).
    files: ["e2e/**", "test/**", "**/*.test.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  globalIgnores([
    ".next/**",
    // separate build folders (BC_NEXT_DIST_DIR)
    ".next-*/**",
    "next-env.d.ts",
    "server/db/generated/**",
    "docs/client/openapi.d.ts",
    "e2e/output/**",
    "test-results/**",
    "public/**",
    ".data/**",
  ]),
]);
