// Types for the two undici modules the transport imports directly (see src/hub/http.ts).
declare module 'undici/lib/dispatcher/env-http-proxy-agent.js' {
  import { EnvHttpProxyAgent } from 'undici'
  export default EnvHttpProxyAgent
}

declare module 'undici/lib/api/api-request.js' {
  import type { Dispatcher } from 'undici'
  export default function request(this: Dispatcher, options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData>
}
