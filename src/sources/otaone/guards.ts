import { priceFact, type SourceGuards } from '../manifest.js';

/** The walls in front of otaone and what every real reply of it states (manifest.ts SourceGuards). */
export const guards = {
  // AWS WAF answers plain clients 202 with a challenge (AWS WAF ChallengeAction; trvl PR #200)
  walls: ['aws_waf'],
  drift: { search_cards: { items: '', states: ['name', priceFact('price', true)], raw: { pattern: 'data-testid="property-card"' } } },
} satisfies SourceGuards;
