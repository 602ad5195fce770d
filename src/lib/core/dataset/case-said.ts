/** How the checks of one case say a problem: as a code (its English is the catalogue's, `../voice.ts`). */
import { jsonTypeOf, type JsonValue } from './ordered-json';
import { coded, type CoreText } from '../said';

export type Said = CoreText;
export type Report = (said: Said) => void;

export const EMPTY = (): Said => coded('field_empty', {});
export const MISSING = (): Said => coded('field_missing', {});
export const notString = (v: JsonValue): Said => coded('field_not_string', { got: jsonTypeOf(v) });
