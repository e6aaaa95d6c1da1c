/**
 * For the stricter check of src/sources (tsconfig.sources.json), the standard library's two doors to
 * `any` closed: what `JSON.parse` returns is not known, so it is `unknown` until a reader of
 * src/domain/json.ts takes a typed value out of it; `Array.isArray` narrows to `unknown[]`, not
 * `any[]`. Declared overloads come before the library's own, so these are the ones picked.
 * Not part of tsconfig.json: the tests still lean on the library's `any` there.
 */
interface JSON {
  parse(text: string, reviver?: (this: unknown, key: string, value: unknown) => unknown): unknown;
}

interface ArrayConstructor {
  isArray(arg: unknown): arg is unknown[];
}
