import { describe, expect, it } from 'vitest';
import { nameScore, nameWords, rankMatches } from '../../../../../src/sources/metasearch/hotels/name-match.js';

describe('metasearch hotels name score', () => {
  it('ignores case, accents and punctuation', () => {
    expect(nameWords("Hôtel d'Orsay — PARIS!")).toEqual(['hotel', 'd', 'orsay', 'paris']);
    expect(nameScore('HOTEL RACHEL', 'Hôtel Rachel')).toBe(1);
    expect(nameScore('Mandarin Oriental Tokyo', 'Mandarin Oriental, Tokyo')).toBe(1);
    expect(nameScore('St. Christopher’s Inn', "St Christopher's Inn")).toBe(1);
  });

  it('scores partial overlap by the Dice coefficient of the word sets', () => {
    // 3 shared of 3 + 4 words
    expect(nameScore('Hilton Paris Opera', 'Hilton Paris Opera Hotel')).toBe(0.8571);
    // 1 shared of 2 + 4 words
    expect(nameScore('Park Hyatt', 'Palace Hotel Tokyo Park')).toBe(0.3333);
    expect(nameScore('Conrad Tokyo', 'Shangri-La Tokyo')).toBe(0.4);
    expect(nameScore('Ritz', 'Four Seasons')).toBe(0);
  });

  it('is symmetric, counts repeated words once and handles empty names and other scripts', () => {
    expect(nameScore('Tokyo Station Hotel', 'The Tokyo Station Hotel')).toBe(nameScore('The Tokyo Station Hotel', 'Tokyo Station Hotel'));
    expect(nameScore('Inn Inn Inn', 'Inn')).toBe(1);
    expect(nameScore('', 'Anything')).toBe(0);
    expect(nameScore('!!!', 'Anything')).toBe(0);
    expect(nameScore('島の宿 近 別邸〜縁〜', '島の宿 近 別邸 縁')).toBe(1);
  });
});

describe('metasearch hotels match ranking', () => {
  it('orders verified, then name score, then upstream rank', () => {
    const matches = [
      { token: 'a', rank: 0, verified: false, name_score: 1 },
      { token: 'b', rank: 1, verified: true, name_score: 0.5 },
      { token: 'c', rank: 2, verified: true, name_score: 0.9 },
      { token: 'd', rank: 3, verified: true, name_score: 0.9 },
      { token: 'e', rank: 4, verified: null, name_score: 1 },
    ];
    expect(rankMatches(matches).map((m) => m.token)).toEqual(['c', 'd', 'b', 'e', 'a']);
    expect(matches[0].token).toBe('a'); // input untouched
  });

  it('falls back to name score and rank when verification is off', () => {
    const matches = [
      { token: 'x', rank: 0, verified: null, name_score: 0.4 },
      { token: 'y', rank: 1, verified: null, name_score: null },
      { token: 'z', rank: 2, verified: null, name_score: 0.4 },
    ];
    expect(rankMatches(matches).map((m) => m.token)).toEqual(['x', 'z', 'y']);
  });
});
