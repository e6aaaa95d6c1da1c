import { describe, expect, it } from 'vitest';
import { passwordRuleProblem } from '../../../../src/doors/dashboard/password-rules.js';

const EMAIL = 'maria.lopez@example.com';

describe('password rules', () => {
  it.each([
    ['password1234', /most commonly used/],
    ['Password!2024', /most commonly used/],
    ['p@ssw0rd1234', /most commonly used/],
    ['123456789012', /run of characters/],
    ['qwertyuiop12', /most commonly used|run of characters/],
    ['1q2w3e4r5t6y', /most commonly used/],
    ['iloveyou1234', /most commonly used/],
    ['monkey123456', /most commonly used/],
    ['aaaaaaaaaaaa', /run of characters/],
    ['abababababab', /run of characters/],
    ['abcdefghijkl', /run of characters/],
    ['987654321098', /run of characters/],
    ['asdfghjklzxc', /run of characters/],
    // a keyboard row walked from any key, round and round, any length
    ['asdfghjklasdf', /run of characters/],
    ['ghjklasdfghjkl', /run of characters/],
    ['poiuytrewqpoiu', /run of characters/],
    ['zxcvbnmzxcvbnmzx', /run of characters/],
    ['qsdfghjklmqsdf', /run of characters/],
    ['4567890123456', /run of characters/],
    ['aaaaaaaa1234', /run of characters/],
    ['monkeymonkey', /run of characters|most commonly used/],
    [EMAIL, /email address/],
    ['maria.lopez12', /email address/],
    ['MariaLopez2024!', /email address/],
    ['maria.lopez.maria.lopez', /email address/],
    ['marialopez12345678', /email address/],
    ['short', /at least 12/],
    ['x'.repeat(201), /at most 200/],
  ])('refuses %s', (password, why) => {
    expect(passwordRuleProblem(password, EMAIL)).toMatch(why);
  });

  it.each([
    'correct horse battery staple',
    'tangerine-octopus-lamp',
    'monkey83749201',
    'Zq7#vL9p!Rw2',
    'maria and the nine lanterns',
    'temporary-abcde-fghjk-mnpqr-stvwx',
    'ghjk4-mnp2q-rstv9-wxyz3',
  ])('accepts %s', (password) => {
    expect(passwordRuleProblem(password, EMAIL)).toBeNull();
  });

  it('works offline: the common list ships with the package', () => {
    expect(passwordRuleProblem('sunshine2020', 'a@b.co')).toMatch(/most commonly used/);
  });
});
