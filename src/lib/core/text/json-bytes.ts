/**
 * JSON's structural characters (and line ends) as numbers, for the scanners of dataset items
 * (UTF-8 bytes) and of model answers (UTF-16 code units). Each is ASCII, so a byte or a code unit
 * equal to one is that character in either encoding.
 */
export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const COMMA = 0x2c;
export const COLON = 0x3a;
export const OPEN_BRACKET = 0x5b;
export const CLOSE_BRACKET = 0x5d;
export const OPEN_BRACE = 0x7b;
export const CLOSE_BRACE = 0x7d;
export const LF = 0x0a;
export const CR = 0x0d;
