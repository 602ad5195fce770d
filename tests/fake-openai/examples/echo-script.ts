/** Example script for cli.ts: answers every chat call with its own prompt, reversed. */
import type { Handler } from '../server';

const echo: Handler = ({ prompt }) => ({ content: [...prompt].reverse().join('') });
export default echo;
