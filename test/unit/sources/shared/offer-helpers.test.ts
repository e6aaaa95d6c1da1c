import { describe, expect, it } from 'vitest';
import {
  cheapestOffer,
  currencyFromText,
  deriveTaxesAndFees,
  nightsBetween,
  parseDisplayedAmount,
  withTaxesAndFees,
  type OtaOffer,
} from '../../../../src/sources/shared/offer.js';

function offer(over: Partial<OtaOffer>): OtaOffer {
  return {
    plan_id: 'p',
    room_type_id: 'r',
    total: null,
    nightly: null,
    taxes_and_fees: null,
    currency: 'USD',
    total_text: '',
    nightly_text: '',
    taxes_and_fees_included: null,
    fees_included: null,
    payment_model: 'PAY_NOW',
    hotel_collect: null,
    member_only: false,
    refundable: null,
    cancellation_text: '',
    extras: null,
    extras_text: '',
    strikeout_text: '',
    inventory_type: '',
    business_model: '',
    messages: [],
    ...over,
  };
}

describe('displayed amounts', () => {
  it('reads the first amount with either separator convention', () => {
    expect(parseDisplayedAmount('$1,234.56')).toBe(1234.56);
    expect(parseDisplayedAmount('€ 45')).toBe(45);
    expect(parseDisplayedAmount('1.234,56 €')).toBe(1234.56);
    expect(parseDisplayedAmount('+€ 5 taxes and charges')).toBe(5);
    expect(parseDisplayedAmount('$783 total')).toBe(783);
    expect(parseDisplayedAmount('1,292')).toBe(1292);
    expect(parseDisplayedAmount('8.5')).toBe(8.5);
    expect(parseDisplayedAmount('-$34.70')).toBe(-34.7);
    expect(parseDisplayedAmount('no price')).toBeNull();
    expect(parseDisplayedAmount('')).toBeNull();
  });

  it('names a currency only from a code or an unambiguous symbol', () => {
    expect(currencyFromText('€ 45')).toBe('EUR');
    expect(currencyFromText('£120')).toBe('GBP');
    expect(currencyFromText('USD 45')).toBe('USD');
    expect(currencyFromText('$45')).toBeNull();
    expect(currencyFromText('¥4,500')).toBeNull();
  });

  it('takes a shared symbol as the requested currency only when that currency writes it so', () => {
    expect(currencyFromText('$45', 'CAD')).toBe('CAD');
    expect(currencyFromText('¥4,500', 'JPY')).toBe('JPY');
    expect(currencyFromText('$45', 'EUR')).toBeNull();
    // what the text names wins over the request
    expect(currencyFromText('€ 45', 'USD')).toBe('EUR');
    expect(currencyFromText('45', 'USD')).toBeNull();
  });

  it('counts nights between dates', () => {
    expect(nightsBetween('2023-06-04', '2023-06-14')).toBe(10);
    expect(nightsBetween('2023-06-04', '2023-06-04')).toBeNull();
    expect(nightsBetween(null, '2023-06-04')).toBeNull();
  });
});

describe('taxes and fees derivation', () => {
  it('is total minus nightly times nights when the total is labelled as including them', () => {
    expect(deriveTaxesAndFees({ total: 500, nightly: 200, taxes_and_fees_included: true }, 2)).toBe(100);
    expect(deriveTaxesAndFees({ total: 782.6, nightly: 32.48, taxes_and_fees_included: true }, 10, 2)).toBe(133);
  });

  it('is null without the label, even when both figures are known', () => {
    expect(deriveTaxesAndFees({ total: 500, nightly: 200, taxes_and_fees_included: null }, 2)).toBeNull();
    expect(deriveTaxesAndFees({ total: 500, nightly: 200, taxes_and_fees_included: false }, 2)).toBeNull();
  });

  it('is null when a figure or the night count is missing', () => {
    expect(deriveTaxesAndFees({ total: null, nightly: 200, taxes_and_fees_included: true }, 2)).toBeNull();
    expect(deriveTaxesAndFees({ total: 500, nightly: null, taxes_and_fees_included: true }, 2)).toBeNull();
    expect(deriveTaxesAndFees({ total: 500, nightly: 200, taxes_and_fees_included: true }, 0)).toBeNull();
    expect(withTaxesAndFees(offer({ total: 500, nightly: 200, taxes_and_fees_included: true }), null).taxes_and_fees).toBeNull();
  });

  it('picks the cheapest stated total', () => {
    const list = [offer({ plan_id: 'a', total: 300 }), offer({ plan_id: 'b', total: null }), offer({ plan_id: 'c', total: 250 })];
    expect(cheapestOffer(list)?.plan_id).toBe('c');
    expect(cheapestOffer([offer({ total: null })])).toBeNull();
  });
});
