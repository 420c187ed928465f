// Types of eslint.boundaries.js, for test/docs/boundaries.test.ts.
import type { Linter } from 'eslint'

export declare const boundariesConfig: Linter.Config
