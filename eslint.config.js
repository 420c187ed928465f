// ESLint flat config. `npm run lint` runs it (with `prettier --check`); formatting is Prettier's
// job, so no stylistic rules here. Type-aware rules use the project service, which finds the
// tsconfig nearest each file (src/tsconfig.json for the sources, ./tsconfig.json for the rest).
import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import { boundariesConfig } from './eslint.boundaries.js'

const TS_FILES = ['src/**/*.ts', 'emulator/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts', '*.ts']
const TEST_FILES = ['emulator/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts']

export default tseslint.config(
  {
    ignores: ['dist/', 'node_modules/', 'coverage/', 'docs/'],
  },
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },

  // Plain JavaScript (this file): the core recommended rules only.
  {
    files: ['**/*.js', '**/*.mjs'],
    ...js.configs.recommended,
  },
  // Browser script injected into the screenshot page (no bundler, globals from <script> tags).
  {
    files: ['test/browser/**/*.js'],
    languageOptions: {
      sourceType: 'script',
      globals: {
        window: 'readonly',
        document: 'readonly',
        Node: 'readonly',
        NodeFilter: 'readonly',
        DOMPurify: 'readonly',
        mermaid: 'readonly',
      },
    },
  },

  // TypeScript: recommended + type-checked rules.
  {
    files: TS_FILES,
    extends: [js.configs.recommended, ...tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
      // `let x` declared before a closure that reads it, assigned once later (signal handlers).
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      // Stripping control characters from untrusted hub/agent text is deliberate.
      'no-control-regex': 'off',
      // Template literals with numbers and booleans are everywhere in messages and are fine.
      '@typescript-eslint/restrict-template-expressions': [
        'error',
        { allowNumber: true, allowBoolean: true, allowNullish: false },
      ],
      // Rejecting with the AbortSignal's reason (an `unknown`) is deliberate: it keeps the caller's cause.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingUnknown: true }],
      '@typescript-eslint/only-throw-error': ['error', { allowThrowingUnknown: true }],
    },
  },

  // Tests, emulator, benchmarks and scripts: parsed JSON and mocks are `any` on purpose.
  {
    files: TEST_FILES,
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      // vitest's expect(obj.method) and mock helpers pass methods around unbound.
      '@typescript-eslint/unbound-method': 'off',
      // Emulator handlers are often `async` to fit an interface without awaiting.
      '@typescript-eslint/require-await': 'off',
      // The emulator models arbitrary Kubernetes JSON; `any` and open string unions are on purpose there.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-redundant-type-constituents': 'off',
      // Test names and failure messages print optional values (exit codes, outputs) as they are.
      '@typescript-eslint/restrict-template-expressions': [
        'error',
        { allowNumber: true, allowBoolean: true, allowNullish: true },
      ],
    },
  },

  // Which folder of src/ may import which (commands never import each other).
  boundariesConfig,
)
