/** `otathree` property details and search: the same GraphQL documents as `otatwo`. */
import { parsePropertyInfo, type PropertyInfoRecord } from '../otatwo/info.js';
import { parsePropertySearch, type PropertySearchPage } from '../otatwo/search.js';

type Json = any;

export function parseOtathreePropertyInfo(payload: Json): PropertyInfoRecord {
  return parsePropertyInfo('otathree', payload);
}

export function parseOtathreeSearch(payload: Json): PropertySearchPage {
  return parsePropertySearch('otathree', payload);
}
