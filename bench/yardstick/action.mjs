// The start-up yardstick: a minimal action on @actions/core that reads its inputs and sends one
// request. bench/yardstick/yardstick.ts bundles it with ncc, as the action is, at bench time.
import * as core from '@actions/core'
import { HttpClient } from '@actions/http-client'

const hubUrl = core.getInput('hub-url', { required: true })
const token = core.getInput('token', { required: true })
core.setSecret(token)
const agent = core.getInput('agent')
const task = core.getInput('task')
const url = `${hubUrl.replace(/\/$/, '')}/services/providers/agents/${encodeURIComponent(core.getInput('org'))}/${encodeURIComponent(core.getInput('workspace'))}/${encodeURIComponent(agent)}/runs`
const response = await new HttpClient('yardstick')
  .postJson(url, { task }, { authorization: `Bearer ${token}` })
  .catch((error) => error)
core.setOutput('status', String(response.statusCode ?? ''))
