/**
 * YAML as kubectl and Helm read it. Both parse manifests with go-yaml v2 (through
 * sigs.k8s.io/yaml): YAML 1.1, so `0644` is the octal 420, `yes`/`no`/`on`/`off`/`y`/`n` are
 * booleans, and `<<` merges a map (docs/hub-facts.md, "What the API server stores"). A 1.2
 * reader sees the string "0644" and `true` where the cluster holds 420, and a gate comparing
 * the two would never pass. go-yaml v2 differs from the 1.1 schema of the `yaml` package in
 * three ways, matched here: timestamps stay strings (go-yaml keeps them so for untyped
 * values), base-60 numbers (`22:22`) are strings (it has none), and `0o644` is octal too (it
 * parses integers with Go's base-0 rules, which accept the 1.2 prefix).
 */
import type { DocumentOptions, ParseOptions, SchemaOptions, ScalarTag } from 'yaml'

const TIMESTAMP = 'tag:yaml.org,2002:timestamp'
const INT = 'tag:yaml.org,2002:int'
const FLOAT = 'tag:yaml.org,2002:float'

/** `0o644` → 420, as Go's strconv.ParseInt(s, 0, 64) reads it. */
const octal12: ScalarTag = {
  identify: (value) => typeof value === 'number' && Number.isInteger(value),
  default: true,
  tag: INT,
  format: 'OCT',
  test: /^[-+]?0o[0-7_]+$/,
  resolve: (source) => {
    const sign = source.startsWith('-') ? -1 : 1
    return sign * parseInt(source.replace(/^[-+]?0o/, '').replaceAll('_', ''), 8)
  },
}

/** The options every manifest is composed with (impact's and rollout's reads alike). */
export const KUBECTL_YAML: ParseOptions & DocumentOptions & SchemaOptions = {
  version: '1.1',
  merge: true,
  customTags: (tags) => [
    octal12,
    ...tags.filter((tag) => {
      if (typeof tag === 'string') return true
      if (tag.tag === TIMESTAMP) return false
      // base-60 integers and floats (format TIME)
      return !((tag.tag === INT || tag.tag === FLOAT) && 'format' in tag && tag.format === 'TIME')
    }),
  ],
}
