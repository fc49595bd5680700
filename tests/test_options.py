"""`option(lc, dest)`: the one way a rule reads an option (value, occurrence, the
release's flag, the name to show)."""

from launch_context import launch_context as _launch

from vcfg.lint.options import UNKNOWN, option


def test_a_given_option_shows_the_name_as_written(tmp_path):
    lc = _launch(tmp_path, "vllm serve m -tp 2 --max_model_len=4096\n")
    tp = option(lc, "tensor_parallel_size")
    assert (tp.value, tp.given, tp.known, tp.exists) == (2, True, True, True)
    assert (tp.name, tp.catalog_name) == ("-tp", "--tensor-parallel-size")
    assert tp.ov is not None and tp.ov.name_span.col == 14
    ml = option(lc, "max_model_len")
    assert (ml.value, ml.name) == (4096, "--max_model_len")


def test_an_option_not_given_has_the_release_default_and_catalog_name(tmp_path):
    lc = _launch(tmp_path, "vllm serve m\n")
    port = option(lc, "port")
    assert (port.value, port.given, port.name) == (8000, False, "--port")
    # must be given: vLLM computes the default later
    assert option(lc, "port", given=True).value is UNKNOWN


def test_unknown_words_hide_defaults_and_absent_options(tmp_path):
    lc = _launch(tmp_path, "vllm serve m $MORE\n")
    assert option(lc, "port").value is UNKNOWN  # $MORE may hold --port
    none = option(lc, "no_such_option")
    assert (none.exists, none.value) == (False, UNKNOWN)
    assert option(lc, "no_such_option", absent=3).value == 3
    assert none.name == "--no-such-option"


def test_a_launch_that_is_not_serve_has_no_values(tmp_path):
    lc = _launch(tmp_path, "vllm bench serve --port 8001\n")
    assert option(lc, "port").value is UNKNOWN
