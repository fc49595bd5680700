from catalog_factory import kv_config, make_catalog

from vcfg.catalog.diff import diff_catalogs, render_diff
from vcfg.catalog.model import EnvVar, Flag, Loc

L = Loc(file="vllm/x.py", line=1)


def test_added_removed_changed_with_release_dates():
    a = make_catalog(
        "0.1.0",
        flags=["--gone", "--kept"],
        envs=["VLLM_OLD"],
        configs=[kv_config("kv_role", "kv_buffer_size")],
        connectors=["P2p"],
    )
    mid = make_catalog(
        "0.2.0",
        flags=["--kept"],
        envs=["VLLM_OLD"],
        configs=[kv_config("kv_role", "kv_buffer_size")],
        connectors=["P2p"],
    )
    b = make_catalog(
        "0.3.0",
        flags=[Flag(option_strings=["--kept"], dest="kept", type="float", loc=L), "--new"],
        envs=[],
        configs=[kv_config("kv_role")],
        connectors=["Nixl"],
    )
    d = diff_catalogs(a, b, history=[b, a, mid])
    assert d.find("flag", "--gone").change == "removed"
    assert d.find("flag", "--gone").since == "0.2.0"
    assert d.find("env", "VLLM_OLD").since == "0.3.0"
    assert d.find("field", "KVTransferConfig.kv_buffer_size").since == "0.3.0"
    assert d.find("connector", "P2p").change == "removed"
    assert d.find("connector", "Nixl").change == "added"
    changed = d.find("flag", "--kept")
    assert changed.change == "changed" and changed.details["type"] == ["int", "float"]
    text = render_diff(d)
    assert "- --gone  (removed in 0.2.0)" in text
    assert "+ --new  (added in 0.3.0)" in text


def test_identical_catalogs_have_no_changes():
    a = make_catalog("0.1.0", flags=["--x"], envs=[EnvVar(name="V", type="int", loc=L)])
    assert diff_catalogs(a, a).entries == []
