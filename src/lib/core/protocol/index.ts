/** The benchmark declared once (DESIGN: protocol): its metrics. */
export * from './metrics';
