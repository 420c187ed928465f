import * as core from '@actions/core'
import { Agent, request } from 'undici'
import { z } from 'zod'

export async function run(): Promise<void> {
  const s = z.object({ a: z.string() }).safeParse({ a: core.getInput('x') })
  core.info(String(s.success) + typeof request + typeof Agent)
}
