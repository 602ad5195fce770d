/** The benchmark declared once (PROTOCOL.md §4): its stages and the judge decisions they make. */
export * from './stages';
export * from './decisions';
