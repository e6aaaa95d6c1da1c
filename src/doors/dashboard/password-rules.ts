import { dictionary } from '@zxcvbn-ts/language-common';

export const PASSWORD_MIN_LENGTH = 12;
const PASSWORD_MAX_LENGTH = 200;

/** The rules as the form states them, so that a refusal never comes as a surprise. */
export const PASSWORD_RULES_TEXT = `At least ${PASSWORD_MIN_LENGTH} characters; not one of the most common passwords (with or without a few digits or symbols added), not your email address, not a repeated or consecutive run like aaaa…, 1234… or qwerty…. A passphrase of a few unrelated words works well.`;

/**
 * The most common passwords of the breach corpora zxcvbn draws on (about 49,000, bundled with
 * `@zxcvbn-ts/language-common`; nothing is looked up over the network). Built at first use.
 */
let common: Set<string> | null = null;
function isCommon(text: string): boolean {
  common ??= new Set(dictionary['passwords-common']);
  return common.has(text);
}

/** Letters written as look-alike digits or symbols; `1` is tried as both i and l. */
const LEET: Record<string, string> = { '@': 'a', '4': 'a', '0': 'o', '3': 'e', $: 's', '5': 's', '7': 't', '!': 'i', '+': 't' };
function unLeet(text: string): string[] {
  const base = [...text].map((c) => LEET[c] ?? c).join('');
  return base.includes('1') ? [base.replaceAll('1', 'i'), base.replaceAll('1', 'l')] : [base];
}

/**
 * Keyboard rows (QWERTY, QWERTZ, AZERTY, the digits), whole layouts read row after row, and the
 * alphabet, either way round: a password that walks along one, from any key, for any length
 * (round and round: asdfghjklasdf), is no secret.
 */
const RUNS = [
  'abcdefghijklmnopqrstuvwxyz',
  '1234567890',
  'qwertyuiop',
  'asdfghjkl',
  'zxcvbnm',
  'qwertzuiop',
  'yxcvbnm',
  'azertyuiop',
  'qsdfghjklm',
  'wxcvbn',
  'qwertyuiopasdfghjklzxcvbnm',
  'qwertzuiopasdfghjklyxcvbnm',
  'azertyuiopqsdfghjklmwxcvbn',
  '1qaz2wsx3edc4rfv5tgb6yhn7ujm8ik9ol0p',
];
const RUN_TEXTS = RUNS.flatMap((r) => [r, [...r].reverse().join('')]);

/** Whether `s` is a walk along `run` (from any position, wrapping round as often as it takes). */
const walksAlong = (s: string, run: string) => run.repeat(Math.ceil(s.length / run.length) + 1).includes(s);

const isDigit = (c: string) => c >= '0' && c <= '9';
/** The step from one character to the next; between digits 9→0 is +1 and 0→9 is -1. */
const step = (a: string, b: string) => {
  const d = b.codePointAt(0)! - a.codePointAt(0)!;
  return isDigit(a) && isDigit(b) ? ((d + 15) % 10) - 5 : d;
};

/** Few distinct characters, a repeated unit (abcabc…), a run of one step (abcd, 9876, 2468), a keyboard run. */
function isTrivial(text: string): boolean {
  const s = text.toLowerCase();
  if (new Set(s).size < 4) return true;
  if (/^(.+?)\1+$/su.test(s)) return true;
  if (RUN_TEXTS.some((r) => walksAlong(s, r))) return true;
  const chars = [...s];
  const steps = new Set(chars.slice(1).map((c, i) => step(chars[i], c)));
  return steps.size === 1 && Math.abs([...steps][0]) <= 2;
}

/** Digits and symbols around a word that add little: at most four digits (a year, 1234), or a trivial run. */
function trivialAffix(affix: string): boolean {
  return affix.replace(/\D/g, '').length <= 4 || isTrivial(affix);
}

/**
 * Why `password` breaks the rules for the account `email`, or null when it keeps them. The same
 * rules judge a new password and, at sign-in, a password chosen before they existed.
 */
export function passwordRuleProblem(password: string, email: string): string | null {
  if (password.length < PASSWORD_MIN_LENGTH) return `The password must have at least ${PASSWORD_MIN_LENGTH} characters.`;
  if (password.length > PASSWORD_MAX_LENGTH) return `The password must have at most ${PASSWORD_MAX_LENGTH} characters.`;
  const lower = password.normalize('NFKC').toLowerCase();
  const address = email.trim().toLowerCase();
  const flat = lower.replace(/[^\p{L}\p{N}]/gu, '');
  const name = (address.split('@')[0] ?? '').replace(/[^\p{L}\p{N}]/gu, '');
  // the name part of the address with little else: maria.lopez12, lopezmaria → no; maria + a real passphrase → yes
  const rest = name.length >= 4 ? flat.replaceAll(name, '') : flat;
  if ((address && lower.includes(address)) || (rest !== flat && (rest.length < 8 || isTrivial(rest)))) {
    return 'The password must not be your email address or be built on it.';
  }
  if (isTrivial(lower)) return 'The password is a repeated or consecutive run of characters (like aaaa…, 1234… or qwerty…); choose something less predictable.';
  const [, lead, core, tail] = /^([^\p{L}]*)(.*?)([^\p{L}]*)$/su.exec(lower)!;
  const wrapped = (lead || tail) && trivialAffix(lead) && trivialAffix(tail);
  for (const candidate of [lower, ...unLeet(lower), ...(wrapped ? [core, ...unLeet(core)] : [])]) {
    if (isCommon(candidate)) return 'This password is one of the most commonly used ones (or one of them with a few digits or symbols added); choose another.';
  }
  if (wrapped && isTrivial(core))
    return 'The password is a repeated or consecutive run of characters with a few digits or symbols added; choose something less predictable.';
  return null;
}
