/* eslint-disable max-lines -- one file: every code of the core is declared in one table (see below). */
/**
 * Codes of the texts the core writes for people (dataset problems, connection diagnoses, run
 * errors, bundle problems, results notes), declared once with the names of their parameters. A
 * call site says what happened once, as `coded(code, params)`; the words are the messages
 * catalogue's, `core_<code>` in `messages/core/`: English from `en.json` through `./voice.ts`
 * (what the CLI prints, and the `message` of errors and dataset problems), other languages
 * through Paraglide in the browser (`src/lib/view/core-text.ts`). This table is the contract
 * between them; unit tests fail when a code has no message in either language, or when its
 * English differs from what the CLI printed before (`tests/unit/i18n/core-english.spec.ts`).
 *
 * The table is one file on purpose: every code of the core is declared in one place, so a code
 * is never declared twice and the catalogue tests read one list.
 *
 * Parameters that come from a file or a provider are hostile: {@link coded} escapes control,
 * bidi and invalid characters in every string parameter (`src/lib/core/text/`), and callers
 * pass them clipped exactly as the sentence quotes them.
 */
import { escapeControl } from './text/escape-control';
import { redactKeys } from './text/redact';

export const CORE_TEXTS = {
	// Dataset: one case (check-case.ts). `got` is a JSON type name or a quoted value.
	case_not_object: ['got'],
	case_number_duplicate: ['first'],
	case_number_missing: [],
	case_number_too_large: ['value'],
	case_number_type: ['got'],
	field_repeated: [],
	field_missing: [],
	field_empty: [],
	field_not_string: ['got'],
	plaintiff_type_missing: [],
	focal_point_empty_list: [],
	focal_point_type: ['got'],
	item_not_string: ['item', 'got'],
	item_empty: ['item'],
	key_details_empty_list: [],
	key_details_empty_object: [],
	key_details_entry_repeated: ['key'],
	key_details_entry_empty: ['key'],
	key_details_number_keys: [],
	key_details_type: ['got'],
	result_dict_type: ['got'],
	result_dict_empty: [],
	claim_repeated: ['claim'],
	claim_text_empty: ['item'],
	claim_verdict: ['item', 'claim', 'got', 'verdicts'],
	lone_surrogate_name: ['char', 'offset', 'after'],
	lone_surrogate_content: ['char', 'offset', 'after'],
	lone_surrogate_value: ['char', 'offset', 'after'],
	lone_surrogate_value_at: ['path', 'char', 'offset', 'after'],
	lone_surrogate_key: ['char', 'offset', 'after'],
	lone_surrogate_key_at: ['path', 'char', 'offset', 'after'],
	// `after`: a part, `surrogate_after`, when text comes before the surrogate, else empty.
	surrogate_after: ['before'],
	history_missing: ['name'],
	history_not_list: ['name', 'got'],
	history_no_messages: [],
	message_not_object: ['got'],
	role_missing: [],
	role_unknown: ['got'],
	role_order: ['expected', 'got'],
	role_order_first: ['expected', 'got'],
	content_missing: [],
	content_not_string: ['got'],
	content_empty: [],
	history_ends_with_assistant: [],
	histories_unequal: ['complete', 'underspecified'],
	// Dataset: the whole file (load.ts, history-fields.ts, problems.ts).
	json_syntax: ['line', 'column', 'detail'],
	text_encoding_wide: ['encoding'],
	text_invalid_byte: ['line', 'column', 'byte'],
	text_truncated_char: ['line', 'column'],
	top_level_not_array: ['got'],
	top_level_object: [],
	no_cases: [],
	history_field_absent: ['name', 'candidates'],
	history_fields_undecided: ['reason', 'candidates'],
	history_field_unmarked: ['role'],
	history_field_several: ['role', 'names'],
	history_field_both: ['name'],
	cause_unclassified: ['cause', 'count', 'unclassified'],
	more_problems: ['count', 'kinds'],
	more_warnings: ['count', 'kinds'],
	// A file-level problem of a named file: `problem` is its part.
	in_file: ['file', 'problem'],
	// A list of names that is empty.
	names_none: [],
	// Test connection (model/diagnose.ts, base-url.ts, key-check.ts). `said`: the provider's words.
	base_url_not_url: ['value'],
	base_url_not_http: ['value'],
	base_url_credentials: ['value', 'what'],
	conn_base_url: ['problem'],
	conn_base_url_hint: [],
	conn_key_character: ['model', 'url', 'char', 'position'],
	conn_paste_key: [],
	conn_ok: ['model', 'url', 'ms'],
	conn_timeout: ['model', 'url', 'seconds'],
	conn_timeout_hint: [],
	conn_cors: ['url'],
	conn_unreachable: ['url'],
	conn_unexpected: ['model', 'url', 'detail'],
	conn_auth: ['url', 'status', 'said'],
	conn_auth_hint: [],
	conn_rate_limited: ['model', 'url', 'said'],
	conn_rate_limited_hint: [],
	conn_status: ['model', 'url', 'status', 'said'],
	conn_unknown_model: ['url', 'model'],
	conn_models_listed: ['models'],
	conn_not_found: ['url', 'model'],
	conn_check_path: [],
	conn_path_v1: [],
	unreachable_hint: ['url'],
	cors_ollama: ['origin'],
	cors_ollama_page: [],
	cors_lmstudio: [],
	cors_vllm: ['origin'],
	cors_vllm_page: [],
	cors_llamacpp: [],
	cors_hosted: ['provider'],
	cors_generic: ['origin'],
	cors_generic_page: [],
	// Run errors (model/failure-message.ts, engine). `case` is a case_number; `modelRole` one of
	// evaluated, user, judge; `detail` the provider's words (clipped) or a coded sentence.
	fail_auth: ['case', 'modelRole', 'model', 'url', 'status', 'provider', 'key'],
	fail_not_found: [
		'case',
		'modelRole',
		'model',
		'url',
		'status',
		'provider',
		'modelSetting',
		'baseUrl'
	],
	fail_bad_request: ['case', 'modelRole', 'model', 'url', 'status', 'provider'],
	fail_rate_limit: ['case', 'modelRole', 'model', 'url', 'status', 'after', 'provider'],
	fail_server: ['case', 'modelRole', 'model', 'url', 'status', 'after', 'detail'],
	fail_timeout: ['case', 'modelRole', 'model', 'url', 'seconds', 'after'],
	fail_dropped_mid_answer: ['case', 'modelRole', 'model', 'url', 'after', 'detail'],
	fail_dropped_before_answer: ['case', 'modelRole', 'model', 'url', 'after', 'detail'],
	fail_unreachable: ['case', 'modelRole', 'model', 'url', 'after', 'detail', 'baseUrl'],
	fail_cors: ['case', 'modelRole', 'model', 'url', 'detail'],
	fail_invalid_output: ['case', 'modelRole', 'model', 'url', 'after', 'detail'],
	fail_aborted: ['case', 'modelRole', 'model', 'url'],
	judge_invalid_json: ['case', 'task', 'asks', 'detail'],
	output_cut_off: ['maxTokens'],
	output_empty: [],
	run_stopped_at_case: ['stage', 'index', 'caseNumber'],
	run_saved_cases: ['done', 'total'],
	run_saved_stages: ['done', 'total', 'perStage'],
	run_stopped_on_request: ['done', 'total', 'perStage'],
	stage_stopped_on_request: ['stage', 'done', 'total'],
	// Files of the canonical layout (jsonl.ts, text.ts) and bundles (adapters/zip-bundle.ts).
	// `file` is the label a reader gives (`bundle.zip: runs/…/a1.jsonl`); `detail` the parser's words.
	jsonl_zero_bytes: ['file', 'line'],
	jsonl_torn_line: ['file', 'line'],
	jsonl_empty_line: ['file', 'line'],
	jsonl_not_json: ['file', 'line', 'detail'],
	jsonl_bad_field: ['file', 'line', 'field', 'detail'],
	jsonl_bad_record: ['file', 'line', 'detail'],
	layout_not_utf8: ['file', 'detail'],
	bundle_more: ['count'],
	bundle_twice: ['path'],
	bundle_not_layout: ['path'],
	bundle_lock_file: ['path'],
	bundle_calls_without_manifest: ['path', 'run'],
	bundle_manifest_missing: ['manifest', 'count', 'first'],
	bundle_case_not_selected: ['file', 'line', 'caseNumber', 'count'],
	bundle_no_run: [],
	bundle_entry_repeated: ['name', 'count', 'first', 'at'],
	bundle_reserved_name: ['name', 'reserved'],
	bundle_unsafe_path: ['path', 'why'],
	bundle_not_zip: ['detail'],
	bundle_damaged: ['detail'],
	bundle_changed_while_read: [],
	bundle_zip_too_large: ['size', 'max'],
	path_reserved: ['reserved'],
	path_backslashes: [],
	path_absolute: [],
	path_outside: [],
	bundle_entry_too_large: ['name', 'size', 'max'],
	bundle_archive_too_large: ['size', 'max'],
	bundle_file_too_large: ['path', 'size', 'max'],
	bundle_files_too_large: ['size', 'max'],
	bundle_case_twice: ['file', 'at', 'caseNumber', 'line'],
	bundle_case_twice_role: ['file', 'at', 'caseNumber', 'role', 'line'],
	// Resume refusals (store/resume.ts). `lines` is filled with one coded difference a line.
	resume_different_inputs: ['manifest', 'run', 'lines'],
	checkpoint_unfit: ['file', 'count', 'lines'],
	checkpoint_saved_twice: ['line', 'record', 'first'],
	checkpoint_not_selected: ['line', 'record'],
	checkpoint_other_inputs: ['line', 'record', 'saved', 'now'],
	checkpoint_more: ['count'],
	identity_case: ['caseNumber'],
	identity_case_history: ['caseNumber', 'role'],
	resume_difference: ['field', 'saved', 'now'],
	resume_selection: ['savedCount', 'nowCount'],
	resume_selection_at: ['savedCount', 'nowCount', 'position', 'saved', 'now'],
	// A record IndexedDB refused for lack of room (adapters/idb-store.ts); `file` its stored path.
	storage_full_record: ['file'],
	// A bundle import IndexedDB refused for lack of room (nothing of it was written).
	storage_full_import: [],
	// Category maps (dataset/categories.ts). `where` is filled with a coded place.
	category_map_not_json: ['detail'],
	category_map_not_text: ['detail'],
	category_map_changed: ['count', 'cause', 'saved', 'now'],
	category_map_not_object: ['example'],
	category_map_empty: [],
	category_map_problems: ['lines'],
	category_where_item: ['cls', 'item'],
	category_where_key: ['key'],
	category_cause_empty: ['where'],
	category_class_empty: ['where'],
	category_cause_twice: ['where', 'cause', 'cls'],
	category_mixed: ['key'],
	// Layout names a bundle may not hold (layout.ts `unportableName`); `name` is the folder.
	bundle_name_reserved: ['path', 'name'],
	bundle_name_trailing_dot: ['path', 'name'],
	bundle_name_leading_dot: ['path', 'name'],
	// A hostile provider (model/redirect.ts, bounded-fetch.ts, failure-message.ts, diagnose.ts).
	// `location` is where a redirect pointed (query values hidden); `said` the provider's words cut.
	redirect_other_origin: ['status', 'location'],
	redirect_post_to_get: ['status', 'location'],
	redirect_loop: ['count', 'status', 'location'],
	redirect_hidden: [],
	fail_redirect: ['case', 'modelRole', 'model', 'url', 'detail'],
	conn_redirect: ['model', 'url', 'detail'],
	provider_body_cut: ['said', 'bytes'],
	fail_offline: ['case', 'modelRole', 'model', 'url', 'after', 'detail'],
	fail_stopped_answering: ['case', 'modelRole', 'model', 'url', 'after', 'detail'],
	conn_offline: ['url'],
	output_tool_calls: [],
	// The prompt pack's template check (prompts/slots.ts); `allowed`, `required` list slots as `{name}`.
	template_unknown_slot: ['template', 'slot', 'allowed'],
	template_missing_slot: ['template', 'slot', 'required'],
	template_history_outside: ['template', 'historySlot'],
	template_empty: ['template'],
	// Notes of the results (results/*, metrics/paired.ts); `unit` is a part, one of the unit_* codes.
	note_no_file: ['file'],
	note_partial: ['file', 'have', 'expected', 'unit'],
	note_incomplete: ['file', 'have', 'expected', 'unit'],
	unit_records_per_case: [],
	unit_cases: [],
	note_cause: ['cause', 'cls'],
	note_group_maps: [],
	note_no_manifest: ['manifest', 'files'],
	note_empty_run: [],
	note_calls_unreadable: ['detail'],
	cmp_note_classes: [],
	cmp_note_repeats: [],
	cmp_note_differ: ['fields'],
	cmp_note_missing: ['side', 'file'],
	cmp_note_incomplete: ['side', 'file'],
	// Batch mode (batch/*). `file` is an output file's name as given, `id` a custom_id as read (clipped).
	batch_request_too_large: ['bytes', 'max'],
	batch_request_over_budget: ['tokens', 'max'],
	batch_id_unknown: ['file', 'line', 'id'],
	batch_id_other_run: ['file', 'line', 'id'],
	batch_id_twice: ['file', 'line', 'id', 'firstFile', 'firstLine'],
	batch_line_no_answer: ['file', 'line', 'id'],
	batch_line_too_long: ['file', 'line', 'bytes', 'max'],
	// Batch mode, rounds kept with the run and imported (batch/rounds.ts, batch/import.ts).
	batch_mode_differs: ['round', 'mode'],
	batch_nothing_waiting: ['run'],
	batch_import_missing: ['round', 'count', 'total'],
	batch_state_not_json: ['file'],
	batch_state_invalid: ['file', 'field', 'detail'],
	batch_answer_empty: ['file', 'line'],
	// Human review of judge decisions (agreement/merge.ts, agreement/report.ts).
	review_conflict: ['file', 'line', 'firstFile', 'firstLine', 'reviewer', 'caseNumber'],
	review_other_run: ['file', 'line', 'run'],
	review_without_run: ['path', 'run'],
	review_unknown_decision: ['file', 'line', 'reviewer', 'caseNumber', 'decision'],
	review_file_too_large: ['file', 'max'],
	review_file_not_read: ['file'],
	review_file_no_run: ['file', 'run'],
	// Re-judging a finished run with another judge (engine/rejudge/).
	rejudge_same_run: ['runId'],
	rejudge_no_source: ['runId', 'model'],
	rejudge_dataset_differs: ['runId'],
	rejudge_source_incomplete: ['file', 'saved', 'total'],
	rejudge_nothing_judged: ['runId'],
	rejudge_generation_call: ['role', 'task'],
	// A re-judged run's resume refusal names its own flag, --as (store/resume.ts).
	resume_different_inputs_rejudged: ['manifest', 'run', 'lines'],
	// Run plans: models × repetitions (engine/plan.ts, engine/run-plan.ts).
	plan_no_model: [],
	plan_no_model_id: ['place'],
	plan_model_twice: ['place', 'model'],
	plan_repetitions: ['min', 'max', 'got'],
	plan_no_run: [],
	plan_run_twice: ['run'],
	plan_foreign_limiters: ['run'],
	// One voice for a failed call and a base URL (model/failure-message.ts, base-url.ts): the
	// pieces their sentences are made of, said as parts (`after_attempts` only after more than
	// one attempt); a `setting_*` names where a role's key, base URL or model is set (flag or
	// environment variable, and Settings).
	after_attempts: ['count'],
	// An HTTP status: a common one with its reason phrase, any other as its number.
	http_400: [],
	http_401: [],
	http_403: [],
	http_404: [],
	http_408: [],
	http_409: [],
	http_422: [],
	http_429: [],
	http_500: [],
	http_502: [],
	http_503: [],
	http_504: [],
	http_status: ['code'],
	provider_quote: ['detail'],
	status_server_error: [],
	setting_key_evaluated: [],
	setting_key_user: [],
	setting_key_judge: [],
	setting_base_url_evaluated: [],
	setting_base_url_user: [],
	setting_base_url_judge: [],
	setting_model_evaluated: [],
	setting_model_user: [],
	setting_model_judge: [],
	credentials_user: [],
	credentials_user_password: [],
	// Filling a template (prompts/fill.ts): a slot it may not use, or one given no value.
	fill_unknown_slot: ['pack', 'template', 'slot'],
	fill_no_value: ['pack', 'template', 'slot'],
	// Leaderboard and costs (leaderboard/*): notes of a board, problems of a prices file.
	lb_note_classes: [],
	lb_note_boards: ['count', 'fields'],
	lb_prices_invalid: ['place', 'detail'],
	lb_unknown_column: ['column', 'allowed'],
	lb_unknown_class: ['cls', 'allowed'],
	// Why a scope of the leaderboard has no paired test (leaderboard/scope.ts).
	lb_untested_few_cases: ['cases', 'min'],
	lb_untested_not_computed: [],
	// One voice for the engine's option check, its start, JSONL readers' own limits and a full
	// browser store (engine/run-options.ts, engine/seal.ts, jsonl.ts, adapters/idb-write.ts).
	// `why` is said from a `name_*` part; `name`, `advice` and `entry` from the `jsonl_*` parts.
	opt_no_stage: [],
	opt_unknown_stage: ['stage', 'stages'],
	opt_gen_with_lca: [],
	opt_run_id_alphabet: ['runId'],
	opt_run_id_unportable: ['why'],
	name_reserved: ['name'],
	name_trailing_dot: ['name'],
	name_leading_dot: ['name'],
	opt_setting: ['field', 'detail'],
	opt_concurrency: ['min', 'max', 'got'],
	opt_concurrency_or_auto: ['min', 'max', 'got'],
	opt_limit: ['got'],
	opt_no_evaluated_model: [],
	dataset_changed_while_starting: [],
	jsonl_line_too_long: ['file', 'line', 'chars', 'max', 'name'],
	jsonl_torn_line_advised: ['file', 'line', 'advice'],
	jsonl_not_entry_field: ['file', 'line', 'entry', 'field', 'detail'],
	jsonl_not_entry_line: ['file', 'line', 'entry', 'detail'],
	jsonl_call_log_line: [],
	jsonl_call_log_entry: [],
	jsonl_call_log_torn: [],
	jsonl_review_line: [],
	jsonl_named: ['name'],
	storage_full_at: ['place'],
	// Stores refusing a record or manifest (store/identity.ts, memory-store.ts, adapters/fs-store-*).
	// `identity` is said from an `identity_case*` part.
	record_saved_twice: ['file', 'identity'],
	record_not_selected: ['file', 'identity'],
	record_saved_already: ['file', 'identity'],
	manifest_exists: ['file'],
	manifest_missing_for_resume: ['file'],
	// Every refusal the browser can show said in both languages: IndexedDB store, manifests,
	// heads, prompt packs, the model client, completeness and compare (adapters/idb-*, store/*,
	// prompts/pack.ts, model/openai-client.ts, results/*), then the file store's locks.
	run_not_in_browser: ['run'],
	manifest_changed_in_resume: ['file'],
	run_locked_other_tab: ['run'],
	no_indexeddb: [],
	bundle_run_saved_during_import: [],
	manifest_invalid_field: ['file', 'field', 'detail'],
	manifest_invalid: ['file', 'detail'],
	manifest_other_run: ['file', 'runId', 'modelDir', 'folderRunId', 'folderModelDir'],
	manifest_model_dir: ['file', 'model', 'expected', 'modelDir'],
	manifest_selected_twice: ['file', 'caseNumber'],
	manifest_not_json: ['file', 'detail'],
	head_no_sha: ['place'],
	record_invalid_field: ['place', 'field', 'detail'],
	record_invalid: ['place', 'detail'],
	run_locked_session: ['run'],
	run_delete_written: ['run'],
	prompt_pack_not_json: ['detail'],
	prompt_pack_invalid: ['lines'],
	prompt_pack_problem: ['problem'],
	call_no_endpoint: ['modelRole'],
	call_base_url: ['modelRole', 'problem'],
	key_unsendable: ['char', 'position'],
	call_bad_key: ['case', 'modelRole', 'model', 'url', 'problem'],
	result_not_selected: ['file', 'line', 'caseNumber', 'count'],
	result_scored_twice: ['file', 'line', 'caseNumber', 'first'],
	result_scored_twice_history: ['file', 'line', 'caseNumber', 'role', 'first'],
	result_cause_mismatch: [
		'file',
		'line',
		'caseNumber',
		'cause',
		'otherCause',
		'otherFile',
		'otherLine'
	],
	result_claims_mismatch: ['file', 'line', 'caseNumber', 'otherFile', 'otherLine'],
	compare_ref: ['runId'],
	compare_ref_model: ['runId', 'model'],
	compare_no_run: ['side', 'ref', 'ids'],
	compare_no_runs_at_all: ['side', 'ref'],
	compare_ambiguous: ['side', 'ref', 'count', 'models'],
	// The last English errors: the file store's locks, writes and output root (adapters/fs-store-*),
	// a stage's missing upstream (engine/stages/shared.ts, engine/run-stages.ts), reviews' manifest,
	// the simulated client, the key check (store/key-free.ts) and a refused comparison
	// (results/compare.ts, metrics/paired.ts), the prompt pack's shape (prompts/pack.ts) and a
	// run's warning that its call log could not be written (engine/context.ts). `who`, `identity`, `what`, `place`, `stages`, `a`,
	// `b`, `problem`, `advice`, `onlyA` and `onlyB` are said from parts of this block.
	lock_who: ['pid', 'host', 'started'],
	lock_unsigned: ['run', 'path'],
	lock_other_host: ['run', 'who', 'path'],
	lock_this_process: ['run', 'path'],
	lock_live: ['run', 'who', 'path'],
	lock_left: ['run', 'path', 'who'],
	lock_not_removed: ['path', 'detail'],
	append_failed: ['file', 'identity', 'detail'],
	append_failed_read_only: ['file', 'identity', 'detail'],
	disk_full: ['file', 'code', 'what'],
	disk_what_record: ['identity'],
	disk_what_manifest: [],
	disk_what_settings: [],
	disk_what_lock: [],
	disk_what_torn: ['file'],
	disk_what_ordered: [],
	root_unwritable: ['root', 'why', 'code', 'path'],
	layout_symlink: ['path'],
	unwritable_read_only: [],
	unwritable_file_in_way: [],
	unwritable_cannot_create: [],
	unwritable_denied: [],
	upstream_missing: ['stage', 'file', 'missing', 'total', 'first', 'command'],
	upstream_saved_one: ['stage', 'total'],
	upstream_saved_many: ['stages', 'total'],
	stages_two: ['first', 'last'],
	stages_more: ['first', 'rest'],
	review_manifest_invalid: ['file'],
	sim_stopped: ['case', 'modelRole'],
	key_free_refused: ['what', 'place'],
	key_free_value: [],
	key_free_manifest: [],
	key_free_record: ['file', 'caseNumber'],
	key_free_named: ['what'],
	key_free_at: ['path'],
	key_free_it: [],
	key_free_name_under: ['path'],
	key_free_name_top: [],
	compare_cannot: ['a', 'b'],
	compare_cannot_runs: [],
	compare_cannot_these: [],
	compare_refused: ['what', 'problem'],
	compare_refused_advised: ['what', 'problem', 'advice'],
	compare_advice_limit: [],
	compare_advice_selection: [],
	compare_other_dataset: ['a', 'b'],
	compare_other_cases: ['na', 'nb', 'onlyA', 'onlyB'],
	compare_cases_none: [],
	compare_cases_listed: ['count', 'cases'],
	source_no_file: ['file'],
	calls_disk_full: ['file', 'code'],
	batch_no_endpoint: ['endpoint'],
	batch_provider_failed: ['step', 'detail'],
	batch_provider_id: ['step', 'length', 'max'],
	pack_name_empty: [],
	pack_version_empty: [],
	pack_template_blank: ['template'],
	pack_unknown_templates: ['where', 'names', 'templates'],
	pack_template_missing: ['template'],
	call_log_unwritten: ['run', 'detail']
} as const satisfies Record<string, readonly string[]>;

export type CoreCode = keyof typeof CORE_TEXTS;
/** Every code, in declaration order. */
export const CORE_CODES = Object.keys(CORE_TEXTS) as CoreCode[];

export type CoreParams<C extends CoreCode> = {
	[P in (typeof CORE_TEXTS)[C][number]]: string | number;
};

/**
 * A core text as a code and its parameters. `parts`, when present, are coded texts the
 * renderer puts in the parameter of the same name (a list of reasons), in place of the English.
 */
export type CoreText = {
	[C in CoreCode]: { code: C; params: CoreParams<C>; parts?: { [P: string]: CoreText[] } };
}[CoreCode];

/** The same text with runs of `keys` redacted in its string parameters (`redactKeys`). */
export function redactSaid(said: CoreText, keys: string | readonly string[]): CoreText {
	const list = typeof keys === 'string' ? [keys] : keys;
	const params = Object.fromEntries(
		Object.entries(said.params).map(([k, v]) => [
			k,
			typeof v === 'string' ? redactKeys(v, list) : v
		])
	);
	// Parts carry words too (a provider's quoted answer is one): redacted all the way down.
	const parts = said.parts
		? Object.fromEntries(
				Object.entries(said.parts).map(([k, texts]) => [k, texts.map((t) => redactSaid(t, list))])
			)
		: undefined;
	return { ...said, params, ...(parts ? { parts } : {}) } as CoreText;
}

/**
 * `{ code, params }`, every string parameter with its control characters escaped. A parameter
 * said by `parts` (a list of reasons, a nested place) needs no value of its own: it is kept
 * empty, and each language says it from its parts.
 */
export function coded<C extends CoreCode, P extends (typeof CORE_TEXTS)[C][number] = never>(
	code: C,
	params: Omit<CoreParams<C>, P> & Partial<CoreParams<C>>,
	parts?: { [K in P]: CoreText[] }
): CoreText {
	const safe: Record<string, string | number> = {};
	for (const name of Object.keys(parts ?? {})) safe[name] = '';
	for (const [k, v] of Object.entries(params as Record<string, string | number>)) {
		safe[k] = typeof v === 'string' ? escapeControl(v) : v;
	}
	return { code, params: safe, ...(parts ? { parts } : {}) } as CoreText;
}

/** How deep `parts` may nest in a text read back from storage. */
const MAX_PART_DEPTH = 4;
/** Texts, and parts of one text, read back at the most. */
const MAX_READ_TEXTS = 64;

/**
 * `v` as coded texts again (a list kept in storage, say), each with a known code and exactly
 * its declared parameters, strings escaped once more; null when any piece does not fit, so a
 * reader falls back to the English it kept beside them.
 */
export function readCoreTexts(v: unknown, depth = 0): CoreText[] | null {
	if (!Array.isArray(v) || v.length > MAX_READ_TEXTS || depth > MAX_PART_DEPTH) return null;
	const out: CoreText[] = [];
	for (const item of v as unknown[]) {
		if (typeof item !== 'object' || item === null) return null;
		const { code, params, parts } = item as Record<string, unknown>;
		if (typeof code !== 'string' || !Object.hasOwn(CORE_TEXTS, code)) return null;
		const names: readonly string[] = CORE_TEXTS[code as CoreCode];
		if (typeof params !== 'object' || params === null) return null;
		const given = Object.entries(params);
		if (
			given.length !== names.length ||
			!given.every(([k, x]) => names.includes(k) && (typeof x === 'string' || Number.isFinite(x)))
		) {
			return null;
		}
		let readParts: { [P: string]: CoreText[] } | undefined;
		if (parts !== undefined) {
			if (typeof parts !== 'object' || parts === null) return null;
			readParts = {};
			for (const [name, list] of Object.entries(parts)) {
				const read = names.includes(name) ? readCoreTexts(list, depth + 1) : null;
				if (!read) return null;
				readParts[name] = read;
			}
		}
		// Read back whole: every parameter is there, parts or not.
		out.push(
			coded<CoreCode>(
				code as CoreCode,
				params as CoreParams<CoreCode>,
				readParts as Record<never, CoreText[]>
			)
		);
	}
	return out;
}
