/**
 * Saving a file from the page: a Blob behind a temporary object URL and an `<a download>`.
 * Works under the site's CSP (no data: navigation, no popups) and in every current browser.
 */

/** Offers `blob` for download as `fileName`. */
export function downloadBlob(blob: Blob, fileName: string): void {
	const url = URL.createObjectURL(blob);
	const a = document.createElement('a');
	a.href = url;
	a.download = fileName;
	a.rel = 'noopener';
	a.style.display = 'none';
	document.body.append(a);
	a.click();
	a.remove();
	// Some browsers read the URL after click() returns; revoke once they have had it.
	setTimeout(() => URL.revokeObjectURL(url), 30_000);
}

/** Offers text (UTF-8) for download. */
export function downloadText(text: string, fileName: string, type = 'text/plain'): void {
	downloadBlob(new Blob([text], { type: `${type};charset=utf-8` }), fileName);
}

/** Offers bytes (e.g. a zip) for download. */
export function downloadBytes(bytes: Uint8Array, fileName: string, type: string): void {
	downloadBlob(new Blob([bytes as Uint8Array<ArrayBuffer>], { type }), fileName);
}

/** A file name from free text: safe characters only, no leading dots. */
export function safeFileName(text: string): string {
	return (
		text
			.replace(/[^\p{L}\p{N}._-]+/gu, '-')
			.replace(/^[.-]+|-+$/g, '')
			.slice(0, 120) || 'download'
	);
}
