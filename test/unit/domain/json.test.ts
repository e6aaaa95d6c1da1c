import { describe, expect, it } from 'vitest';
import {
  arr,
  arrOrNull,
  at,
  bool,
  dateOrInstant,
  isObject,
  jsonValueEnd,
  nonEmptyStr,
  nonEmptyText,
  num,
  numeric,
  obj,
  objs,
  str,
  stringText,
  text,
  textOrNull,
} from '../../../src/domain/json.js';

describe('JSON readers (src/domain/json.ts)', () => {
  const doc: unknown = JSON.parse('{"a":[{"b":" x "},[1,2]],"n":3,"s":"4.5","e":"","z":null,"list":[{"k":1},2,"t",null,{"k":2}]}');

  it('a number steps into an array only, a string into an object only', () => {
    expect(at(doc, 'a', 0, 'b')).toBe(' x ');
    expect(at(doc, 'a', 1, 1)).toBe(2);
    expect(at(doc, 'a', '0')).toBeUndefined();
    expect(at(doc, 'a', 'length')).toBeUndefined();
    expect(at({ 0: 'zero' }, 0)).toBeUndefined();
    expect(at(doc, 'z', 'anything')).toBeUndefined();
    expect(at('text', 'length')).toBeUndefined();
    expect(at(doc)).toBe(doc);
  });

  it('reads own keys only, never a prototype member', () => {
    expect(at({}, 'constructor')).toBeUndefined();
    expect(at({}, 'toString')).toBeUndefined();
    expect(at(JSON.parse('{"__proto__":{"x":1}}'), '__proto__', 'x')).toBe(1);
  });

  it('a present null stays null, a missing step is undefined', () => {
    expect(at(doc, 'z')).toBeNull();
    expect(at(doc, 'missing')).toBeUndefined();
  });

  it('objects and arrays', () => {
    expect(isObject([])).toBe(false);
    expect(isObject(null)).toBe(false);
    expect(obj(doc, 'a', 0)).toEqual({ b: ' x ' });
    expect(obj(doc, 'a')).toBeNull();
    expect(arr(doc, 'n')).toEqual([]);
    expect(arr(doc, 'a', 1)).toEqual([1, 2]);
    expect(arrOrNull(doc, 'n')).toBeNull();
    expect(arrOrNull(doc, 'a', 1)).toEqual([1, 2]);
    expect(objs(doc, 'list')).toEqual([{ k: 1 }, { k: 2 }]);
  });

  it('strings: as stated, or trimmed, with or without numbers', () => {
    expect(str(doc, 'a', 0, 'b')).toBe(' x ');
    expect(str(doc, 'e')).toBe('');
    expect(str(doc, 'n')).toBeNull();
    expect(nonEmptyStr(doc, 'e')).toBeNull();
    expect(nonEmptyStr(doc, 'a', 0, 'b')).toBe(' x ');
    expect(text(doc, 'a', 0, 'b')).toBe('x');
    expect(text(doc, 'n')).toBe('3');
    expect(text(doc, 'z')).toBe('');
    expect(textOrNull(doc, 'e')).toBeNull();
    expect(textOrNull(doc, 'n')).toBe('3');
    expect(textOrNull('  ')).toBeNull();
    expect(stringText(doc, 'n')).toBe('');
    expect(stringText('  y ')).toBe('y');
    expect(nonEmptyText('   ')).toBeNull();
    expect(nonEmptyText(5)).toBeNull();
    expect(nonEmptyText(' w ')).toBe('w');
  });

  it('numbers: finite only; numeric strings only where asked for', () => {
    expect(num(doc, 'n')).toBe(3);
    expect(num(doc, 's')).toBeNull();
    expect(num(Number.NaN)).toBeNull();
    expect(num(Number.POSITIVE_INFINITY)).toBeNull();
    expect(numeric(doc, 's')).toBe(4.5);
    expect(numeric(' 7 ')).toBe(7);
    expect(numeric('')).toBeNull();
    expect(numeric('  ')).toBeNull();
    expect(numeric('1e400')).toBeNull();
    expect(numeric('12abc')).toBeNull();
  });

  it('booleans and dates', () => {
    expect(bool(true)).toBe(true);
    expect(bool(1)).toBeNull();
    expect(bool('true')).toBeNull();
    expect(dateOrInstant('2026-03-01')).toBe('2026-03-01');
    expect(dateOrInstant('2026-03-01T10:00:00+02:00')).toBe('2026-03-01T08:00:00Z');
    expect(dateOrInstant('2026-03-01T10:00:00.250Z')).toBe('2026-03-01T10:00:00.250Z');
    expect(dateOrInstant('soon')).toBeNull();
    expect(dateOrInstant({ d: ' 2026-03-01 ' }, 'd')).toBe('2026-03-01');
  });

  it('finds where an embedded JSON value ends, brackets inside strings and escaped quotes skipped', () => {
    const page = 'x = {"a": "}]\\"{", "b": [1, {"c": []}]}; y = 2';
    const start = page.indexOf('{');
    const end = jsonValueEnd(page, start);
    expect(JSON.parse(page.slice(start, end))).toEqual({ a: '}]"{', b: [1, { c: [] }] });
    expect(page.slice(end)).toBe('; y = 2');
    expect(jsonValueEnd('[[1, 2]', 0)).toBe(-1);
    expect(jsonValueEnd('data:[1,[2]] tail', 5)).toBe(12);
  });
});
