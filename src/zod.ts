/**
 * zod's functional API (`zod/mini`), set up as the classic API sets itself up: loading the
 * classic API cost the action ~9 ms of start-up (bench/README.md). Every module takes zod from
 * here (`import * as z`), so this runs before any schema is built or parses.
 */
import { config, memoizer } from 'zod/mini'
// The English locale alone: `z.locales` would bundle every language.
import en from 'zod/v4/locales/en.js'

// English issue messages (mini has none: every issue would read "Invalid input"); they reach
// users in protocol errors and input problems. The memoizer gives recursive schemas (a QuerySpec's
// projection, a query row's relations) the cycle support classic zod gives them; it must be set
// before they are built.
config(en())
config({ memoizer: memoizer() })

export * from 'zod/mini'
