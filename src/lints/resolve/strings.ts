// String building the resolvers fold (issue 26): a name spelt at run time from constant
// parts is the same name as its literal. Both languages build names the same few ways:
// joining parts, reversing, changing case, replacing, formatting, decoding (base64, hex,
// rot13, character codes). Pure; each returns undefined for what it cannot fold, so the
// resolver treats the expression as unknown, as before.

/** Methods of a string that fold with string (or integer) arguments, by their name. */
export function stringMethod(
  value: string,
  method: string,
  args: readonly (string | number | undefined)[]
): string | undefined {
  const [a, b] = args
  switch (method) {
    case 'lower':
    case 'casefold':
    case 'toLowerCase':
      return value.toLowerCase()
    case 'upper':
    case 'toUpperCase':
      return value.toUpperCase()
    case 'strip':
    case 'trim':
      return args.length === 0 ? value.trim() : undefined
    case 'replace':
    case 'replaceAll':
      return typeof a === 'string' && typeof b === 'string' ? value.split(a).join(b) : undefined
    case 'concat':
      return args.every(x => typeof x === 'string') ? value + args.join('') : undefined
    case 'repeat':
      return typeof a === 'number' && a >= 0 && a * value.length <= 4096
        ? value.repeat(a)
        : undefined
    case 'encode':
    case 'decode':
    case 'toString':
      return decodeAs(value, typeof a === 'string' ? a : 'utf-8')
    default:
      return undefined
  }
}

/** `value` read in an encoding that names a text transform; plain text encodings keep it. */
export function decodeAs(value: string, encoding: string): string | undefined {
  const e = encoding.toLowerCase().replace(/[-_]/g, '')
  if (e === 'utf8' || e === 'ascii' || e === 'latin1' || e === 'binary') return value
  if (e === 'rot13') return rot13(value)
  if (e === 'base64') return fromBase64(value)
  if (e === 'hex') return fromHex(value)
  return undefined
}

export function rot13(value: string): string {
  return value.replace(/[a-zA-Z]/g, c => {
    const base = c <= 'Z' ? 65 : 97
    return String.fromCharCode(((c.charCodeAt(0) - base + 13) % 26) + base)
  })
}

export function fromBase64(value: string): string | undefined {
  const clean = value.replace(/\s/g, '').replace(/-/g, '+').replace(/_/g, '/')
  if (!/^[A-Za-z0-9+/]*=*$/.test(clean)) return undefined
  return Buffer.from(clean, 'base64').toString('utf8')
}

export function fromHex(value: string): string | undefined {
  const clean = value.replace(/\s/g, '')
  if (!/^([0-9a-fA-F]{2})*$/.test(clean)) return undefined
  return Buffer.from(clean, 'hex').toString('utf8')
}

/** Characters of code points (`chr`, `String.fromCharCode`); undefined for any non-code. */
export function fromCodes(codes: readonly (number | undefined)[]): string | undefined {
  if (!codes.every(c => c !== undefined && Number.isInteger(c) && c >= 0 && c <= 0x10ffff))
    return undefined
  return String.fromCodePoint(...(codes as number[]))
}

/** Python's `fmt % args` with only `%s`/`%r`-free `%s` and `%%`. */
export function percentFormat(fmt: string, args: readonly string[]): string | undefined {
  let i = 0
  let ok = true
  const out = fmt.replace(/%(%|s)/g, (_, kind: string) => {
    if (kind === '%') return '%'
    const next = args[i++]
    if (next === undefined) ok = false
    return next ?? ''
  })
  return ok && i === args.length && !/%[^%s]/.test(fmt) ? out : undefined
}

/** Python's `fmt.format(*args)` with `{}` and `{n}` fields only. */
export function braceFormat(fmt: string, args: readonly string[]): string | undefined {
  if (/[{}]/.test(fmt.replace(/\{\{|\}\}|\{\d*\}/g, ''))) return undefined
  let auto = 0
  let ok = true
  const out = fmt.replace(/\{\{|\}\}|\{(\d*)\}/g, (whole, index: string | undefined) => {
    if (whole === '{{') return '{'
    if (whole === '}}') return '}'
    const value = args[index === undefined || index === '' ? auto++ : Number(index)]
    if (value === undefined) ok = false
    return value ?? ''
  })
  return ok ? out : undefined
}
