/**
 * The core's texts in the interface language. The core gives each problem and error a code and
 * its parameters (`$lib/core/said`); this says them through the messages `core_<code>`
 * (messages/core/), walked by the core's own `sayWith` (`$lib/core/voice`) so lists and places
 * are put together as in English. Anything without a code is shown as the core wrote it
 * (English). In English itself the page shows the core's own sentence, made from the same
 * catalogue, the one the CLI prints. Parameters were escaped by the core; the parts of a place
 * this adds (case_number, field name) are escaped here the same way, and Svelte prints all of
 * it as text.
 *
 * One file on purpose: its SAY table has one entry per code of `CORE_TEXTS` (said.ts), typed
 * against it, so a code without its words fails the type check here, in one place.
 */
import type { DatasetProblem } from '$lib/core/dataset/problems';
import type { CoreCode, CoreParams, CoreText } from '$lib/core/said';
import { escapeControl } from '$lib/core/text/escape-control';
import { m } from '$lib/paraglide/messages';
import { baseLocale, getLocale } from '$lib/paraglide/runtime';
import { roleName } from './role-names';
import { localList } from './local-format';
import { VERDICTS } from '$lib/core/dataset/names';
import { NOTES } from './core-notes';
import { sayAt, sayWith, type Voice, type VoiceWord } from '$lib/core/voice';

type Sayers = { [C in CoreCode]: (params: CoreParams<C>) => string };

/** One message per code: TypeScript fails the build when a code has none. */
const SAY: Sayers = {
	case_not_object: (p) => m.core_case_not_object(p),
	case_number_duplicate: (p) => m.core_case_number_duplicate(p),
	case_number_missing: () => m.core_case_number_missing(),
	case_number_too_large: (p) => m.core_case_number_too_large(p),
	case_number_type: (p) => m.core_case_number_type(p),
	field_repeated: () => m.core_field_repeated(),
	field_missing: () => m.core_field_missing(),
	field_empty: () => m.core_field_empty(),
	field_not_string: (p) => m.core_field_not_string(p),
	plaintiff_type_missing: () => m.core_plaintiff_type_missing(),
	focal_point_empty_list: () => m.core_focal_point_empty_list(),
	focal_point_type: (p) => m.core_focal_point_type(p),
	item_not_string: (p) => m.core_item_not_string(p),
	item_empty: (p) => m.core_item_empty(p),
	key_details_empty_list: () => m.core_key_details_empty_list(),
	key_details_empty_object: () => m.core_key_details_empty_object(),
	key_details_entry_repeated: (p) => m.core_key_details_entry_repeated(p),
	key_details_entry_empty: (p) => m.core_key_details_entry_empty(p),
	key_details_number_keys: () => m.core_key_details_number_keys(),
	key_details_type: (p) => m.core_key_details_type(p),
	result_dict_type: (p) => m.core_result_dict_type(p),
	result_dict_empty: () => m.core_result_dict_empty(),
	claim_repeated: (p) => m.core_claim_repeated(p),
	claim_text_empty: (p) => m.core_claim_text_empty(p),
	// The three verdicts as the page's language lists them (支持、部分支持和驳回 on a Chinese page).
	claim_verdict: (p) => m.core_claim_verdict({ ...p, verdicts: localList([...VERDICTS]) }),
	lone_surrogate_name: (p) => m.core_lone_surrogate_name(p),
	lone_surrogate_content: (p) => m.core_lone_surrogate_content(p),
	lone_surrogate_value: (p) => m.core_lone_surrogate_value(p),
	lone_surrogate_value_at: (p) => m.core_lone_surrogate_value_at(p),
	lone_surrogate_key: (p) => m.core_lone_surrogate_key(p),
	lone_surrogate_key_at: (p) => m.core_lone_surrogate_key_at(p),
	surrogate_after: (p) => m.core_surrogate_after(p),
	history_missing: (p) => m.core_history_missing(p),
	history_not_list: (p) => m.core_history_not_list(p),
	history_no_messages: () => m.core_history_no_messages(),
	message_not_object: (p) => m.core_message_not_object(p),
	role_missing: () => m.core_role_missing(),
	role_unknown: (p) => m.core_role_unknown(p),
	role_order: (p) => m.core_role_order(p),
	role_order_first: (p) => m.core_role_order_first(p),
	content_missing: () => m.core_content_missing(),
	content_not_string: (p) => m.core_content_not_string(p),
	content_empty: () => m.core_content_empty(),
	history_ends_with_assistant: () => m.core_history_ends_with_assistant(),
	histories_unequal: (p) => m.core_histories_unequal(p),
	json_syntax: (p) => m.core_json_syntax(p),
	text_encoding_wide: (p) => m.core_text_encoding_wide(p),
	text_invalid_byte: (p) => m.core_text_invalid_byte(p),
	text_truncated_char: (p) => m.core_text_truncated_char(p),
	top_level_not_array: (p) => m.core_top_level_not_array(p),
	top_level_object: () => m.core_top_level_object(),
	no_cases: () => m.core_no_cases(),
	history_field_absent: (p) => m.core_history_field_absent(p),
	history_fields_undecided: (p) => m.core_history_fields_undecided(p),
	history_field_unmarked: (p) => m.core_history_field_unmarked(p),
	history_field_several: (p) => m.core_history_field_several(p),
	history_field_both: (p) => m.core_history_field_both(p),
	cause_unclassified: (p) => m.core_cause_unclassified(p),
	more_problems: (p) => m.core_more_problems(p),
	more_warnings: (p) => m.core_more_warnings(p),
	in_file: (p) => m.core_in_file(p),
	names_none: () => m.core_names_none(),
	base_url_not_url: (p) => m.core_base_url_not_url(p),
	base_url_not_http: (p) => m.core_base_url_not_http(p),
	base_url_credentials: (p) => m.core_base_url_credentials(p),
	conn_base_url: (p) => m.core_conn_base_url(p),
	conn_base_url_hint: () => m.core_conn_base_url_hint(),
	conn_key_character: (p) => m.core_conn_key_character(p),
	conn_paste_key: () => m.core_conn_paste_key(),
	conn_ok: (p) => m.core_conn_ok(p),
	conn_timeout: (p) => m.core_conn_timeout(p),
	conn_timeout_hint: () => m.core_conn_timeout_hint(),
	conn_cors: (p) => m.core_conn_cors(p),
	conn_unreachable: (p) => m.core_conn_unreachable(p),
	conn_unexpected: (p) => m.core_conn_unexpected(p),
	conn_auth: (p) => m.core_conn_auth(p),
	conn_auth_hint: () => m.core_conn_auth_hint(),
	conn_rate_limited: (p) => m.core_conn_rate_limited(p),
	conn_rate_limited_hint: () => m.core_conn_rate_limited_hint(),
	conn_status: (p) => m.core_conn_status(p),
	conn_unknown_model: (p) => m.core_conn_unknown_model(p),
	conn_models_listed: (p) => m.core_conn_models_listed(p),
	conn_not_found: (p) => m.core_conn_not_found(p),
	conn_check_path: () => m.core_conn_check_path(),
	conn_path_v1: () => m.core_conn_path_v1(),
	unreachable_hint: (p) => m.core_unreachable_hint(p),
	cors_ollama: (p) => m.core_cors_ollama(p),
	cors_ollama_page: () => m.core_cors_ollama_page(),
	cors_lmstudio: () => m.core_cors_lmstudio(),
	cors_vllm: (p) => m.core_cors_vllm(p),
	cors_vllm_page: () => m.core_cors_vllm_page(),
	cors_llamacpp: () => m.core_cors_llamacpp(),
	cors_hosted: (p) => m.core_cors_hosted(p),
	cors_generic: (p) => m.core_cors_generic(p),
	cors_generic_page: () => m.core_cors_generic_page(),
	fail_auth: (p) => m.core_fail_auth(p),
	fail_not_found: (p) => m.core_fail_not_found(p),
	fail_bad_request: (p) => m.core_fail_bad_request(p),
	fail_rate_limit: (p) => m.core_fail_rate_limit(p),
	fail_server: (p) => m.core_fail_server(p),
	fail_timeout: (p) => m.core_fail_timeout(p),
	fail_dropped_mid_answer: (p) => m.core_fail_dropped_mid_answer(p),
	fail_dropped_before_answer: (p) => m.core_fail_dropped_before_answer(p),
	fail_unreachable: (p) => m.core_fail_unreachable(p),
	fail_cors: (p) => m.core_fail_cors(p),
	fail_invalid_output: (p) => m.core_fail_invalid_output(p),
	fail_aborted: (p) => m.core_fail_aborted(p),
	judge_invalid_json: (p) => m.core_judge_invalid_json(p),
	output_cut_off: (p) => m.core_output_cut_off(p),
	output_empty: () => m.core_output_empty(),
	run_stopped_at_case: (p) => m.core_run_stopped_at_case(p),
	run_saved_cases: (p) => m.core_run_saved_cases(p),
	run_saved_stages: (p) => m.core_run_saved_stages(p),
	run_stopped_on_request: (p) => m.core_run_stopped_on_request(p),
	stage_stopped_on_request: (p) => m.core_stage_stopped_on_request(p),
	jsonl_zero_bytes: (p) => m.core_jsonl_zero_bytes(p),
	jsonl_torn_line: (p) => m.core_jsonl_torn_line(p),
	jsonl_empty_line: (p) => m.core_jsonl_empty_line(p),
	jsonl_not_json: (p) => m.core_jsonl_not_json(p),
	jsonl_bad_field: (p) => m.core_jsonl_bad_field(p),
	jsonl_bad_record: (p) => m.core_jsonl_bad_record(p),
	layout_not_utf8: (p) => m.core_layout_not_utf8(p),
	bundle_more: (p) => m.core_bundle_more(p),
	bundle_twice: (p) => m.core_bundle_twice(p),
	bundle_not_layout: (p) => m.core_bundle_not_layout(p),
	bundle_lock_file: (p) => m.core_bundle_lock_file(p),
	bundle_calls_without_manifest: (p) => m.core_bundle_calls_without_manifest(p),
	bundle_manifest_missing: (p) => m.core_bundle_manifest_missing(p),
	bundle_case_not_selected: (p) => m.core_bundle_case_not_selected(p),
	bundle_no_run: () => m.core_bundle_no_run(),
	bundle_entry_repeated: (p) => m.core_bundle_entry_repeated(p),
	bundle_reserved_name: (p) => m.core_bundle_reserved_name(p),
	bundle_unsafe_path: (p) => m.core_bundle_unsafe_path(p),
	bundle_not_zip: (p) => m.core_bundle_not_zip(p),
	bundle_damaged: (p) => m.core_bundle_damaged(p),
	bundle_changed_while_read: () => m.core_bundle_changed_while_read(),
	bundle_zip_too_large: (p) => m.core_bundle_zip_too_large(p),
	path_reserved: (p) => m.core_path_reserved(p),
	path_backslashes: () => m.core_path_backslashes(),
	path_absolute: () => m.core_path_absolute(),
	path_outside: () => m.core_path_outside(),
	bundle_entry_too_large: (p) => m.core_bundle_entry_too_large(p),
	bundle_archive_too_large: (p) => m.core_bundle_archive_too_large(p),
	bundle_file_too_large: (p) => m.core_bundle_file_too_large(p),
	bundle_files_too_large: (p) => m.core_bundle_files_too_large(p),
	bundle_case_twice: (p) => m.core_bundle_case_twice(p),
	bundle_case_twice_role: (p) => m.core_bundle_case_twice_role(p),
	resume_different_inputs: (p) => m.core_resume_different_inputs(p),
	checkpoint_unfit: (p) => m.core_checkpoint_unfit(p),
	checkpoint_saved_twice: (p) => m.core_checkpoint_saved_twice(p),
	checkpoint_not_selected: (p) => m.core_checkpoint_not_selected(p),
	checkpoint_other_inputs: (p) => m.core_checkpoint_other_inputs(p),
	checkpoint_more: (p) => m.core_checkpoint_more(p),
	identity_case: (p) => m.core_identity_case(p),
	identity_case_history: (p) => m.core_identity_case_history(p),
	resume_difference: (p) => m.core_resume_difference(p),
	resume_selection: (p) => m.core_resume_selection(p),
	resume_selection_at: (p) => m.core_resume_selection_at(p),
	storage_full_record: (p) => m.core_storage_full_record(p),
	storage_full_import: () => m.core_storage_full_import(),
	category_map_not_json: (p) => m.core_category_map_not_json(p),
	category_map_not_text: (p) => m.core_category_map_not_text(p),
	category_map_changed: (p) => m.core_category_map_changed(p),
	category_map_not_object: (p) => m.core_category_map_not_object(p),
	category_map_empty: () => m.core_category_map_empty(),
	category_map_problems: (p) => m.core_category_map_problems(p),
	category_where_item: (p) => m.core_category_where_item(p),
	category_where_key: (p) => m.core_category_where_key(p),
	category_cause_empty: (p) => m.core_category_cause_empty(p),
	category_class_empty: (p) => m.core_category_class_empty(p),
	category_cause_twice: (p) => m.core_category_cause_twice(p),
	category_mixed: (p) => m.core_category_mixed(p),
	bundle_name_reserved: (p) => m.core_bundle_name_reserved(p),
	bundle_name_trailing_dot: (p) => m.core_bundle_name_trailing_dot(p),
	bundle_name_leading_dot: (p) => m.core_bundle_name_leading_dot(p),
	redirect_other_origin: (p) => m.core_redirect_other_origin(p),
	redirect_post_to_get: (p) => m.core_redirect_post_to_get(p),
	redirect_loop: (p) => m.core_redirect_loop(p),
	redirect_hidden: () => m.core_redirect_hidden(),
	fail_redirect: (p) => m.core_fail_redirect(p),
	conn_redirect: (p) => m.core_conn_redirect(p),
	provider_body_cut: (p) => m.core_provider_body_cut(p),
	fail_offline: (p) => m.core_fail_offline(p),
	fail_stopped_answering: (p) => m.core_fail_stopped_answering(p),
	conn_offline: (p) => m.core_conn_offline(p),
	output_tool_calls: () => m.core_output_tool_calls(),
	template_unknown_slot: (p) => m.core_template_unknown_slot(p),
	template_missing_slot: (p) => m.core_template_missing_slot(p),
	template_history_outside: (p) => m.core_template_history_outside(p),
	template_empty: (p) => m.core_template_empty(p),
	// Human review of judge decisions.
	review_conflict: (p) => m.core_review_conflict(p),
	review_other_run: (p) => m.core_review_other_run(p),
	review_without_run: (p) => m.core_review_without_run(p),
	// Re-judging a finished run with another judge (engine/rejudge/).
	rejudge_same_run: (p) => m.core_rejudge_same_run(p),
	rejudge_no_source: (p) => m.core_rejudge_no_source(p),
	rejudge_dataset_differs: (p) => m.core_rejudge_dataset_differs(p),
	rejudge_source_incomplete: (p) => m.core_rejudge_source_incomplete(p),
	rejudge_nothing_judged: (p) => m.core_rejudge_nothing_judged(p),
	rejudge_generation_call: (p) => m.core_rejudge_generation_call(p),
	resume_different_inputs_rejudged: (p) => m.core_resume_different_inputs_rejudged(p),
	// Batch mode (batch/*).
	batch_request_too_large: (p) => m.core_batch_request_too_large(p),
	batch_id_unknown: (p) => m.core_batch_id_unknown(p),
	batch_id_other_run: (p) => m.core_batch_id_other_run(p),
	batch_id_twice: (p) => m.core_batch_id_twice(p),
	batch_line_no_answer: (p) => m.core_batch_line_no_answer(p),
	// Batch mode, rounds kept with the run and imported (batch/rounds.ts, batch/import.ts).
	batch_mode_differs: (p) => m.core_batch_mode_differs(p),
	batch_nothing_waiting: (p) => m.core_batch_nothing_waiting(p),
	batch_state_not_json: (p) => m.core_batch_state_not_json(p),
	batch_state_invalid: (p) => m.core_batch_state_invalid(p),
	batch_answer_empty: (p) => m.core_batch_answer_empty(p),
	batch_import_missing: (p) => m.core_batch_import_missing(p),
	// Run plans.
	plan_no_model: () => m.core_plan_no_model(),
	plan_no_model_id: (p) => m.core_plan_no_model_id(p),
	plan_model_twice: (p) => m.core_plan_model_twice(p),
	plan_repetitions: (p) => m.core_plan_repetitions(p),
	plan_no_run: () => m.core_plan_no_run(),
	plan_run_twice: (p) => m.core_plan_run_twice(p),
	plan_foreign_limiters: (p) => m.core_plan_foreign_limiters(p),
	after_attempts: (p) => m.core_after_attempts(p),
	http_400: () => m.core_http_400(),
	http_401: () => m.core_http_401(),
	http_403: () => m.core_http_403(),
	http_404: () => m.core_http_404(),
	http_408: () => m.core_http_408(),
	http_409: () => m.core_http_409(),
	http_422: () => m.core_http_422(),
	http_429: () => m.core_http_429(),
	http_500: () => m.core_http_500(),
	http_502: () => m.core_http_502(),
	http_503: () => m.core_http_503(),
	http_504: () => m.core_http_504(),
	http_status: (p) => m.core_http_status(p),
	provider_quote: (p) => m.core_provider_quote(p),
	status_server_error: () => m.core_status_server_error(),
	setting_key_evaluated: () => m.core_setting_key_evaluated(),
	setting_key_user: () => m.core_setting_key_user(),
	setting_key_judge: () => m.core_setting_key_judge(),
	setting_base_url_evaluated: () => m.core_setting_base_url_evaluated(),
	setting_base_url_user: () => m.core_setting_base_url_user(),
	setting_base_url_judge: () => m.core_setting_base_url_judge(),
	setting_model_evaluated: () => m.core_setting_model_evaluated(),
	setting_model_user: () => m.core_setting_model_user(),
	setting_model_judge: () => m.core_setting_model_judge(),
	credentials_user: () => m.core_credentials_user(),
	credentials_user_password: () => m.core_credentials_user_password(),
	fill_unknown_slot: (p) => m.core_fill_unknown_slot(p),
	fill_no_value: (p) => m.core_fill_no_value(p),
	// Leaderboard and costs.
	lb_note_classes: () => m.core_lb_note_classes(),
	lb_note_boards: (p) => m.core_lb_note_boards(p),
	lb_prices_invalid: (p) => m.core_lb_prices_invalid(p),
	lb_unknown_column: (p) => m.core_lb_unknown_column(p),
	lb_unknown_class: (p) => m.core_lb_unknown_class(p),
	lb_untested_few_cases: (p) => m.core_lb_untested_few_cases(p),
	lb_untested_not_computed: () => m.core_lb_untested_not_computed(),
	// One voice for the engine's option check, its start, JSONL limits and a full browser store.
	opt_no_stage: () => m.core_opt_no_stage(),
	opt_unknown_stage: (p) => m.core_opt_unknown_stage(p),
	opt_gen_with_lca: () => m.core_opt_gen_with_lca(),
	opt_run_id_alphabet: (p) => m.core_opt_run_id_alphabet(p),
	opt_run_id_unportable: (p) => m.core_opt_run_id_unportable(p),
	name_reserved: (p) => m.core_name_reserved(p),
	name_trailing_dot: (p) => m.core_name_trailing_dot(p),
	name_leading_dot: (p) => m.core_name_leading_dot(p),
	opt_setting: (p) => m.core_opt_setting(p),
	opt_concurrency: (p) => m.core_opt_concurrency(p),
	opt_concurrency_or_auto: (p) => m.core_opt_concurrency_or_auto(p),
	opt_limit: (p) => m.core_opt_limit(p),
	opt_no_evaluated_model: () => m.core_opt_no_evaluated_model(),
	dataset_changed_while_starting: () => m.core_dataset_changed_while_starting(),
	jsonl_line_too_long: (p) => m.core_jsonl_line_too_long(p),
	jsonl_torn_line_advised: (p) => m.core_jsonl_torn_line_advised(p),
	jsonl_not_entry_field: (p) => m.core_jsonl_not_entry_field(p),
	jsonl_not_entry_line: (p) => m.core_jsonl_not_entry_line(p),
	jsonl_call_log_line: () => m.core_jsonl_call_log_line(),
	jsonl_call_log_entry: () => m.core_jsonl_call_log_entry(),
	jsonl_call_log_torn: () => m.core_jsonl_call_log_torn(),
	jsonl_review_line: () => m.core_jsonl_review_line(),
	jsonl_named: (p) => m.core_jsonl_named(p),
	storage_full_at: (p) => m.core_storage_full_at(p),
	// Stores refusing a record or manifest.
	record_saved_twice: (p) => m.core_record_saved_twice(p),
	record_not_selected: (p) => m.core_record_not_selected(p),
	record_saved_already: (p) => m.core_record_saved_already(p),
	manifest_exists: (p) => m.core_manifest_exists(p),
	manifest_missing_for_resume: (p) => m.core_manifest_missing_for_resume(p),
	// Every refusal the browser can show, said in both languages.
	run_not_in_browser: (p) => m.core_run_not_in_browser(p),
	manifest_changed_in_resume: (p) => m.core_manifest_changed_in_resume(p),
	run_locked_other_tab: (p) => m.core_run_locked_other_tab(p),
	no_indexeddb: () => m.core_no_indexeddb(),
	bundle_run_saved_during_import: () => m.core_bundle_run_saved_during_import(),
	manifest_invalid_field: (p) => m.core_manifest_invalid_field(p),
	manifest_invalid: (p) => m.core_manifest_invalid(p),
	manifest_other_run: (p) => m.core_manifest_other_run(p),
	manifest_model_dir: (p) => m.core_manifest_model_dir(p),
	manifest_selected_twice: (p) => m.core_manifest_selected_twice(p),
	manifest_not_json: (p) => m.core_manifest_not_json(p),
	head_no_sha: (p) => m.core_head_no_sha(p),
	record_invalid_field: (p) => m.core_record_invalid_field(p),
	record_invalid: (p) => m.core_record_invalid(p),
	run_locked_session: (p) => m.core_run_locked_session(p),
	run_delete_written: (p) => m.core_run_delete_written(p),
	prompt_pack_not_json: (p) => m.core_prompt_pack_not_json(p),
	prompt_pack_invalid: (p) => m.core_prompt_pack_invalid(p),
	prompt_pack_problem: (p) => m.core_prompt_pack_problem(p),
	call_no_endpoint: (p) => m.core_call_no_endpoint(p),
	call_base_url: (p) => m.core_call_base_url(p),
	key_unsendable: (p) => m.core_key_unsendable(p),
	call_bad_key: (p) => m.core_call_bad_key(p),
	result_not_selected: (p) => m.core_result_not_selected(p),
	result_scored_twice: (p) => m.core_result_scored_twice(p),
	result_scored_twice_history: (p) => m.core_result_scored_twice_history(p),
	result_cause_mismatch: (p) => m.core_result_cause_mismatch(p),
	result_claims_mismatch: (p) => m.core_result_claims_mismatch(p),
	compare_ref: (p) => m.core_compare_ref(p),
	compare_ref_model: (p) => m.core_compare_ref_model(p),
	compare_no_run: (p) => m.core_compare_no_run(p),
	compare_no_runs_at_all: (p) => m.core_compare_no_runs_at_all(p),
	compare_ambiguous: (p) => m.core_compare_ambiguous(p),
	// The last English errors: file store locks and writes, upstream, key check, compare.
	lock_who: (p) => m.core_lock_who(p),
	lock_unsigned: (p) => m.core_lock_unsigned(p),
	lock_other_host: (p) => m.core_lock_other_host(p),
	lock_this_process: (p) => m.core_lock_this_process(p),
	lock_live: (p) => m.core_lock_live(p),
	lock_left: (p) => m.core_lock_left(p),
	lock_not_removed: (p) => m.core_lock_not_removed(p),
	append_failed: (p) => m.core_append_failed(p),
	append_failed_read_only: (p) => m.core_append_failed_read_only(p),
	disk_full: (p) => m.core_disk_full(p),
	disk_what_record: (p) => m.core_disk_what_record(p),
	disk_what_manifest: () => m.core_disk_what_manifest(),
	disk_what_settings: () => m.core_disk_what_settings(),
	disk_what_lock: () => m.core_disk_what_lock(),
	disk_what_torn: (p) => m.core_disk_what_torn(p),
	disk_what_ordered: () => m.core_disk_what_ordered(),
	root_unwritable: (p) => m.core_root_unwritable(p),
	unwritable_read_only: () => m.core_unwritable_read_only(),
	unwritable_file_in_way: () => m.core_unwritable_file_in_way(),
	unwritable_cannot_create: () => m.core_unwritable_cannot_create(),
	unwritable_denied: () => m.core_unwritable_denied(),
	upstream_missing: (p) => m.core_upstream_missing(p),
	upstream_saved_one: (p) => m.core_upstream_saved_one(p),
	upstream_saved_many: (p) => m.core_upstream_saved_many(p),
	stages_two: (p) => m.core_stages_two(p),
	stages_more: (p) => m.core_stages_more(p),
	review_manifest_invalid: (p) => m.core_review_manifest_invalid(p),
	sim_stopped: (p) => m.core_sim_stopped(p),
	key_free_refused: (p) => m.core_key_free_refused(p),
	key_free_value: () => m.core_key_free_value(),
	key_free_manifest: () => m.core_key_free_manifest(),
	key_free_record: (p) => m.core_key_free_record(p),
	key_free_named: (p) => m.core_key_free_named(p),
	key_free_at: (p) => m.core_key_free_at(p),
	key_free_it: () => m.core_key_free_it(),
	key_free_name_under: (p) => m.core_key_free_name_under(p),
	key_free_name_top: () => m.core_key_free_name_top(),
	compare_cannot: (p) => m.core_compare_cannot(p),
	compare_cannot_runs: () => m.core_compare_cannot_runs(),
	compare_cannot_these: () => m.core_compare_cannot_these(),
	compare_refused: (p) => m.core_compare_refused(p),
	compare_refused_advised: (p) => m.core_compare_refused_advised(p),
	compare_advice_limit: () => m.core_compare_advice_limit(),
	compare_advice_selection: () => m.core_compare_advice_selection(),
	compare_other_dataset: (p) => m.core_compare_other_dataset(p),
	compare_other_cases: (p) => m.core_compare_other_cases(p),
	compare_cases_none: () => m.core_compare_cases_none(),
	compare_cases_listed: (p) => m.core_compare_cases_listed(p),
	source_no_file: (p) => m.core_source_no_file(p),
	calls_disk_full: (p) => m.core_calls_disk_full(p),
	batch_no_endpoint: (p) => m.core_batch_no_endpoint(p),
	pack_name_empty: () => m.core_pack_name_empty(),
	pack_version_empty: () => m.core_pack_version_empty(),
	pack_template_blank: (p) => m.core_pack_template_blank(p),
	pack_unknown_templates: (p) => m.core_pack_unknown_templates(p),
	pack_template_missing: (p) => m.core_pack_template_missing(p),
	call_log_unwritten: (p) => m.core_call_log_unwritten(p),
	...NOTES
};

/** The words of the catalogue that are not a code's own, in the interface language. */
const WORDS: Record<VoiceWord, (p: Record<string, string | number>) => string> = {
	core_list_separator: () => m.core_list_separator(),
	core_list_line: (p) => m.core_list_line(p as { item: string }),
	core_list_rest: (p) => m.core_list_rest(p as { item: string }),
	core_category_line: (p) => m.core_category_line(p as { item: string }),
	core_role_complete: () => m.core_role_complete(),
	core_role_underspecified: () => m.core_role_underspecified(),
	core_place_case: (p) => m.core_place_case(p as { index: number }),
	core_place_case_number: (p) =>
		m.core_place_case_number(p as { index: number; caseNumber: string }),
	core_place_message: (p) => m.core_place_message(p as { field: string; index: number }),
	core_place_both: (p) => m.core_place_both(p as { case: string; field: string }),
	core_place_line: (p) => m.core_place_line(p as { place: string; problem: string })
};

/** The interface language's voice (`$lib/core/voice`): its messages, role and field names. */
const INTERFACE: Voice = {
	message: (code, params) => (SAY[code] as (p: Record<string, string | number>) => string)(params),
	word: (key, params = {}) => WORDS[key](params),
	modelRole: roleName,
	field: (name) => problemField(name)
};

/** True in the base locale (English), where the core's sentence is shown as it wrote it. */
const isBase = (locale: string) => locale === baseLocale;

/** A coded text in the interface language. */
export function sayCore(text: CoreText): string {
	return sayWith(text, INTERFACE);
}

/**
 * The core's text in the interface language when it has a code (or every piece of it has one),
 * else its English.
 */
export function coreText(
	english: string,
	said: CoreText | readonly CoreText[] | null | undefined
): string {
	if (!said || isBase(getLocale())) return english;
	return 'code' in said ? sayCore(said) : said.map(sayCore).join('');
}

/** Field labels the validator writes (its own words); other fields are JSON names, kept. */
const FIELD_LABELS: Record<string, () => string> = {
	'complete history': () => m.core_field_complete_history(),
	'underspecified history': () => m.core_field_underspecified_history(),
	histories: () => m.core_field_histories(),
	'history fields': () => m.core_field_history_fields()
};

/** A problem's field in the interface language: the validator's labels translated, names as written. */
export function problemField(field: string): string {
	if (isBase(getLocale())) return escapeControl(field);
	return FIELD_LABELS[field]?.() ?? escapeControl(field);
}

/** The problem alone (no place), in the interface language. */
export function problemMessage(p: DatasetProblem): string {
	return p.said && !isBase(getLocale()) ? sayCore(p.said) : p.message;
}

/**
 * One full line, place and problem, in the interface language: `案例 #17（case_number
 * 2023-041）信息不全历史，消息 3：应为 "assistant"，实为 "user"`. Positions keep their
 * zero-based meaning. A problem without a code is its English line.
 */
export function problemLine(p: DatasetProblem): string {
	if (!p.said || isBase(getLocale())) return p.text;
	const caseNumber = p.caseNumber === null ? null : escapeControl(p.caseNumber);
	return sayAt({ ...p, caseNumber }, sayCore(p.said), INTERFACE);
}
