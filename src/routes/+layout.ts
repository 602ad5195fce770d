// A static single-page app: every route is prerendered as a shell and runs in the browser,
// where the dataset, keys and checkpoints live.
export const prerender = true;
export const ssr = false;
export const trailingSlash = 'never';
