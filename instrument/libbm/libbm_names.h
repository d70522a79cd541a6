/* SPDX-License-Identifier: MIT */
/* Included first in every file of libbm (-include): the names of bm's
 * internal library (lib/) and of libbm's private functions, which libbm
 * is built with, become names in libbm's own namespace.  libbm is linked
 * into users' programs, often statically, where an xmalloc or a
 * plan_build of the program's own would otherwise clash with libbm's or,
 * worse, silently replace it.  (The shared libbm also hides them:
 * -fvisibility=hidden.)  tests/cli/libbm.sh checks that libbm defines no
 * other global names than bm_*. */
#ifndef BM_LIBBM_NAMES_H
#define BM_LIBBM_NAMES_H

/* lib/ */
#define atomic_file_abort bm__atomic_file_abort
#define atomic_file_commit bm__atomic_file_commit
#define atomic_file_descriptor bm__atomic_file_descriptor
#define atomic_file_is_stdout bm__atomic_file_is_stdout
#define atomic_file_open bm__atomic_file_open
#define atomic_file_stream bm__atomic_file_stream
#define bm_error bm__error
#define bm_error_escape bm__error_escape
#define bm_error_prefix bm__error_prefix
#define bm_escape_controls bm__escape_controls
#define bm_find_control bm__find_control
#define dynbuf_add bm__dynbuf_add
#define dynbuf_detach bm__dynbuf_detach
#define dynbuf_drop bm__dynbuf_drop
#define dynbuf_free bm__dynbuf_free
#define dynbuf_grow bm__dynbuf_grow
#define dynbuf_reset bm__dynbuf_reset
#define dynbuf_str bm__dynbuf_str
#define json_buf_detach bm__json_buf_detach
#define json_buf_int bm__json_buf_int
#define json_buf_raw bm__json_buf_raw
#define json_buf_rawn bm__json_buf_rawn
#define json_buf_real bm__json_buf_real
#define json_buf_reserve bm__json_buf_reserve
#define json_buf_string bm__json_buf_string
#define number_option bm__number_option
#define number_option_real bm__number_option_real
#define number_real bm__number_real
#define number_whole bm__number_whole
#define report_format_rfc3339 bm__report_format_rfc3339
#define report_new_uuid bm__report_new_uuid
#define report_now_rfc3339 bm__report_now_rfc3339
#define utf8_sequence_length bm__utf8_sequence_length
#define utf8_valid bm__utf8_valid
#define utf8_code_point bm__utf8_code_point
#define utf8_invisible bm__utf8_invisible
#define utf8_repaired bm__utf8_repaired
#define xasprintf bm__xasprintf
#define xcalloc bm__xcalloc
#define xgrow bm__xgrow
#define xmalloc bm__xmalloc
#define xreallocarray bm__xreallocarray
#define xstrdup bm__xstrdup
#define xstrndup bm__xstrndup

/* instrument/ */
#define control_ask_time bm__control_ask_time
#define control_open bm__control_open
#define control_send bm__control_send
#define measure_natively bm__measure_natively
#define measure_under_valgrind bm__measure_under_valgrind
#define native_report_add bm__native_report_add
#define native_report_begin bm__native_report_begin
#define native_report_end bm__native_report_end
#define plan_build bm__plan_build
#define plan_release bm__plan_release
#define plan_skip_after bm__plan_skip_after
#define plan_skip_reason bm__plan_skip_reason
#define registry_warm_rerun bm__registry_warm_rerun
#define platform_arch bm__platform_arch
#define platform_host bm__platform_host
#define platform_host_cpu bm__platform_host_cpu
#define platform_os bm__platform_os
#define run_under_valgrind bm__run_under_valgrind

#endif
