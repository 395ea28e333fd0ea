"""The libFuzzer flags `utf8cert fuzz` passes through (after `--`): only those libFuzzer knows.

libFuzzer itself only warns about a flag it does not know, and goes on without it: a typo in a
flag would silently run another campaign than the one asked for.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

LIBFUZZER_FLAGS: Final = frozenset(
    """
    verbosity seed runs max_len len_control seed_inputs keep_seed cross_over
    cross_over_uniform_dist mutate_depth reduce_depth shuffle prefer_small timeout
    error_exitcode timeout_exitcode max_total_time help fork fork_corpus_groups ignore_timeouts
    ignore_ooms ignore_crashes merge set_cover_merge stop_file merge_control_file
    minimize_crash cleanse_crash mutation_graph_file use_counters use_memmem use_value_profile
    use_cmp shrink reduce_inputs jobs workers reload report_slow_units only_ascii dict
    artifact_prefix exact_artifact_path print_pcs print_funcs print_final_stats
    print_corpus_stats print_coverage print_full_coverage dump_coverage handle_segv handle_bus
    handle_abrt handle_ill handle_fpe handle_int handle_term handle_xfsz handle_winexcept
    handle_usr1 handle_usr2
    close_fd_mask detect_leaks purge_allocator_interval trace_malloc rss_limit_mb
    malloc_limit_mb exit_on_src_pos exit_on_item ignore_remaining_args focus_function entropic
    entropic_feature_frequency_threshold entropic_number_of_rarest_features
    entropic_scale_per_exec_time analyze_dict use_clang_coverage data_flow_trace
    collect_data_flow create_missing_dirs
    """.split()  # noqa: SIM905  # a list literal would take 80 lines
)
"""The flags of the libFuzzer atheris 3 is built with, as its -help=1 lists them: libFuzzer
itself only warns about a flag it does not know, and goes on without it."""


NOT_A_CAMPAIGN: Final = frozenset(
    {"merge", "set_cover_merge", "merge_control_file", "minimize_crash", "cleanse_crash", "help"}
)
"""Flags that make libFuzzer do something else than fuzz (merge corpora, shrink one crash, print
its help): a `utf8cert fuzz` campaign would then run nothing, and report that it found nothing."""

OWNED: Final = {
    "max_len": "--max-len",
    "runs": "--runs",
    "max_total_time": "--max-time",
    "seed": "--seed",
    "timeout": "--timeout",
    "fork": "--jobs",
    "jobs": "--jobs",
    "workers": "--jobs",
    "artifact_prefix": "--artifacts",
    "exact_artifact_path": "--artifacts",
}
"""Flags `utf8cert fuzz` sets itself from its own options: given again, they would undo them
behind its back (crash files written where triage does not look, a -max_len the in-flight
record and the boundary notes do not know)."""


def pass_through(flags: Sequence[str]) -> tuple[str, ...]:
    """Return the libFuzzer flags given after `--`; ValueError (one line) for one not
    `-name=value`, whose name libFuzzer does not know, that makes libFuzzer do something else
    than fuzz (NOT_A_CAMPAIGN), or that an option of `utf8cert fuzz` sets (OWNED)."""
    for flag in flags:
        if not re.fullmatch(r"-[a-z_]+=\S*", flag):
            raise ValueError(f"{flag!r} is not a libFuzzer flag (-name=value)")
        name = flag[1:].partition("=")[0]
        if name not in LIBFUZZER_FLAGS:
            raise ValueError(f"{flag!r}: libFuzzer has no flag -{name} (its list: -- -help=1)")
        if name in NOT_A_CAMPAIGN:
            raise ValueError(
                f"{flag!r}: with -{name} libFuzzer does not fuzz, and a campaign would find "
                "nothing; run the campaign's script with it: ARTIFACTS/utf8cert_fuzzer.py "
                f"{flag} DIR…"
            )
        if name in OWNED:
            raise ValueError(f"{flag!r}: use {OWNED[name]} (utf8cert fuzz sets -{name} itself)")
    return tuple(flags)
