// The light build of bottleneck (what octokit's throttling plugin loads) has the full build's API, minus Redis.
declare module 'bottleneck/light.js' {
  import Bottleneck from 'bottleneck'
  export default Bottleneck
}
