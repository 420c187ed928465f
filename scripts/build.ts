/**
 * `npm run build`: ncc bundles src/ into dist/ unminified, then esbuild minifies every file it
 * wrote. Not `ncc --minify`: its terser pass drops the parentheses webpack puts around each module
 * factory, `123: ((module) => {…})`, which V8 reads as "invoked soon, compile now". Without them
 * V8 pre-parses every factory and parses it again when it runs: measured, ~20 ms more to the
 * first request (bench/README.md). esbuild keeps those parentheses, and also minifies the chunks
 * ncc leaves as they are.
 */
import { spawnSync } from 'node:child_process'
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { transformSync } from 'esbuild'

const ROOT = join(import.meta.dirname, '..')

/** Bundles `entry` (relative to the repository) into `outDir`, which is emptied first. */
export function bundle(entry: string, outDir: string, nccOptions: string[] = []): void {
  rmSync(outDir, { recursive: true, force: true })
  const ncc = spawnSync(
    process.execPath,
    [join(ROOT, 'node_modules/@vercel/ncc/dist/ncc/cli.js'), 'build', entry, '-o', outDir, '--quiet', ...nccOptions],
    {
      cwd: ROOT,
      encoding: 'utf8',
    },
  )
  if (ncc.status !== 0) throw new Error(`ncc could not bundle ${entry}: ${ncc.stderr}${ncc.stdout}`)
  for (const file of readdirSync(outDir).filter((name) => /\.m?js$/.test(name))) {
    const path = join(outDir, file)
    // keepNames: terser kept function and class names under ncc; errors and stack traces still read them.
    const { code } = transformSync(readFileSync(path, 'utf8'), {
      minify: true,
      keepNames: true,
      format: 'esm',
      target: 'node24',
      charset: 'utf8',
    })
    writeFileSync(path, code)
  }
}

if (import.meta.main) bundle('src/index.ts', join(ROOT, 'dist'), ['--license', 'licenses.txt'])
