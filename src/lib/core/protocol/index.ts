/** The benchmark declared once (PROTOCOL.md §4, §7): its stages, the judge decisions they make, its metrics. */
export * from './stages';
export * from './decisions';
export * from './metrics';
