"""KV connector registry and extra-config keys (vcfg.catalog.extract.connectors).

The synthetic trees below imitate only the *shape* vcfg relies on (a factory with
register calls, connector modules reading a dict); they are written for these tests.
"""

from __future__ import annotations

import textwrap

import pytest

from vcfg.catalog.extract.connectors import FACTORY, extract_connectors
from vcfg.catalog.extract.source import from_tree, from_version

KVC = "vllm/distributed/kv_transfer/kv_connector"
PKG = "vllm.distributed.kv_transfer.kv_connector"


def _write(root, rel, text):
    p = root / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(textwrap.dedent(text).lstrip("\n"))


def _tree(root, files):
    _write(root, "vllm/envs.py", "")
    _write(root, "vllm/engine/arg_utils.py", "")
    for rel, text in files.items():
        _write(root, rel, text)
    return from_tree(root)


FACTORY_TEXT = f"""
class KVConnectorFactory:
    @classmethod
    def register_connector(cls, name, module_path, class_name):
        pass


KVConnectorFactory.register_connector(
    "AlphaConnector", "{PKG}.v1.alpha", "AlphaConnector")
KVConnectorFactory.register_connector(
    name="BetaConnector", module_path="{PKG}.v1.beta", class_name="Beta")
KVConnectorFactory.register_connector(NAME_FROM_ELSEWHERE, "{PKG}.v1.x", "X")
KVConnectorFactory.register_connector("GhostConnector", "{PKG}.v1.ghost", "Ghost")
KVConnectorFactory.register_connector("AlphaConnector", "{PKG}.v1.other", "Dup")
other_factory.register_connector("NotOurs", "{PKG}.v1.alpha", "AlphaConnector")
"""

ALPHA = f"""
from {PKG}.v1.helper import read_helper
from {PKG}.v1.shared_consts import SHARED_TIMEOUT
from vllm.outside import outside_thing

POOL_GB = 16
POOL_BYTES = POOL_GB * 1024 ** 3


class Defaults:
    RETRIES = 3
    BACKOFF = RETRIES * 2.5


class AlphaConnector:
    def __init__(self, cfg, n):
        self.pool = float(cfg.get_from_extra_config("pool_bytes", POOL_BYTES))
        self.mode = cfg.get_from_extra_config("mode", "PUT")
        self.port = cfg.kv_connector_extra_config["port"]
        extra_config = cfg.kv_connector_extra_config
        self.retries = int(extra_config.get("retries", Defaults.RETRIES))
        self.backoff = extra_config.get("backoff", Defaults.BACKOFF)
        self.timeout = extra_config.get("timeout", SHARED_TIMEOUT)
        self.hosts = extra_config.get("hosts", ["a", "b"])
        self.maybe = extra_config.get("maybe")
        self.dyn = extra_config.get("dyn", n + 1)
        if "opt_port" in extra_config:
            self.opt = extra_config["opt_port"]
        if "fill_port" not in extra_config:
            extra_config["fill_port"] = 7000
        self.fill = int(extra_config["fill_port"])
        self.unrelated = cfg.other_dict.get("not_a_key", 1)
        self.computed_key = extra_config.get(n, 2)
"""

HELPER = f"""
from {PKG}.v1.deeper import nothing


def read_helper(kv_transfer_config):
    return kv_transfer_config.kv_connector_extra_config.get("helper_key", True)
"""

DEEPER = """
def nothing(extra_config):
    return extra_config.get("too_deep", 0)
"""

OUTSIDE = """
def outside_thing(extra_config):
    return extra_config.get("outside_key", 0)
"""

SHARED = """
SHARED_TIMEOUT = 30.0
"""

BETA_INIT = """
from .worker import BetaWorker
"""

BETA_WORKER = """
class BetaWorker:
    def __init__(self, config):
        self.backends = config.get_from_extra_config("backends", ["UCX"])
        self.bad_default = config.get_from_extra_config("lease", 30)
"""


@pytest.fixture
def synthetic(tmp_path):
    return _tree(
        tmp_path,
        {
            f"{KVC}/factory.py": FACTORY_TEXT,
            f"{KVC}/v1/alpha.py": ALPHA,
            f"{KVC}/v1/helper.py": HELPER,
            f"{KVC}/v1/deeper.py": DEEPER,
            f"{KVC}/v1/shared_consts.py": SHARED,
            "vllm/outside.py": OUTSIDE,
            f"{KVC}/v1/beta/__init__.py": BETA_INIT,
            f"{KVC}/v1/beta/worker.py": BETA_WORKER,
        },
    )


def _keys(conn):
    return {k.name: k for k in conn.extra_keys}


def test_registry_names_modules_classes_and_lines(synthetic):
    conns = extract_connectors(synthetic)
    # computed name skipped, duplicate name kept once (the first), foreign receiver ignored
    assert [c.name for c in conns] == ["AlphaConnector", "BetaConnector", "GhostConnector"]
    alpha, beta, ghost = conns
    assert alpha.module == f"{PKG}.v1.alpha" and alpha.class_name == "AlphaConnector"
    assert (alpha.loc.file, alpha.loc.line) == (FACTORY, 7)
    assert beta.class_name == "Beta" and beta.loc.line == 9
    assert alpha.source_file == f"{KVC}/v1/alpha.py"
    assert beta.source_file == f"{KVC}/v1/beta/__init__.py"
    assert ghost.source_file is None and ghost.extra_keys == []


def test_defaults_are_folded_and_coercions_recorded(synthetic):
    keys = _keys(extract_connectors(synthetic)[0])
    assert keys["pool_bytes"].default == 16 * 1024**3 and keys["pool_bytes"].type == "float"
    assert keys["pool_bytes"].loc.file == f"{KVC}/v1/alpha.py"
    assert keys["pool_bytes"].loc.line == 16
    assert keys["mode"].default == "PUT" and keys["mode"].type is None
    assert keys["retries"].default == 3 and keys["retries"].type == "int"
    assert keys["backoff"].default == 7.5  # class constant built from another one
    assert keys["timeout"].default == 30.0  # imported from an in-tree module
    assert keys["hosts"].default == ["a", "b"]
    assert keys["maybe"].default is None and keys["maybe"].has_default
    assert keys["dyn"].default == {"$dynamic": "n + 1"}


def test_subscripts_are_required_unless_guarded_or_filled(synthetic):
    keys = _keys(extract_connectors(synthetic)[0])
    assert keys["port"].has_default is False and keys["port"].loc.line == 18
    assert keys["opt_port"].has_default is True
    assert keys["opt_port"].default == {"$dynamic": "read only when present"}
    # the connector writes a value when the key is missing: not required, default known
    assert keys["fill_port"].has_default is True and keys["fill_port"].default == 7000
    assert keys["fill_port"].type == "int"


def test_only_extra_config_reads_with_constant_keys(synthetic):
    keys = _keys(extract_connectors(synthetic)[0])
    assert "not_a_key" not in keys
    assert all(isinstance(k, str) for k in keys)


def test_imports_followed_one_level_inside_kv_connector_only(synthetic):
    keys = _keys(extract_connectors(synthetic)[0])
    assert keys["helper_key"].default is True
    assert keys["helper_key"].loc.file == f"{KVC}/v1/helper.py"
    assert "too_deep" not in keys  # two imports away
    assert "outside_key" not in keys  # outside the kv_connector folder


def test_package_connector_scans_all_its_files(synthetic):
    keys = _keys(extract_connectors(synthetic)[1])
    assert keys["backends"].default == ["UCX"]
    assert keys["backends"].loc.file == f"{KVC}/v1/beta/worker.py"
    assert keys["lease"].default == 30


def test_no_factory_gives_empty_registry(tmp_path):
    assert extract_connectors(_tree(tmp_path, {})) == []


def test_broken_files_do_not_crash(tmp_path):
    src = _tree(tmp_path, {f"{KVC}/factory.py": "KVConnectorFactory.register_connector(\n"})
    assert extract_connectors(src) == []
    (tmp_path / KVC / "factory.py").write_text(f'KVConnectorFactory.register_connector("A", "{PKG}.a", "A")\n')
    _write(tmp_path, f"{KVC}/a.py", "def f(:\n    extra_config.get('x', 1)\n")
    src = from_tree(tmp_path)  # a source is a snapshot: its parsed modules are cached
    (conn,) = extract_connectors(src)
    assert conn.source_file == f"{KVC}/a.py" and conn.extra_keys == []


def test_odd_defaults_stay_dynamic(tmp_path):
    src = _tree(
        tmp_path,
        {
            f"{KVC}/factory.py": f'KVConnectorFactory.register_connector("A", "{PKG}.a", "A")\n',
            f"{KVC}/a.py": (
                "import os\n"
                "HUGE = 10 ** 100000\n"
                "def f(extra_config):\n"
                "    extra_config.get('env', os.environ['X'])\n"
                "    extra_config.get('huge', HUGE)\n"
                "    extra_config.get('zero', 1 / 0)\n"
                "    extra_config.get('neg', -2)\n"
            ),
        },
    )
    keys = _keys(extract_connectors(src)[0])
    assert keys["env"].default == {"$dynamic": "os.environ['X']"}
    assert keys["huge"].default == {"$dynamic": "HUGE"}
    assert keys["zero"].default == {"$dynamic": "1 / 0"}
    assert keys["neg"].default == -2


# --------------------------------------------------------------------------- real releases

REGISTRY_SIZES = {"0.10.0": 9, "0.11.0": 6, "0.20.0": 14, "0.23.0": 15, "0.24.0": 16, "0.33.0": 17}


@pytest.mark.slow
@pytest.mark.parametrize("version,count", sorted(REGISTRY_SIZES.items()))
def test_registry_size_per_release(version, count):
    conns = extract_connectors(from_version(version))
    assert len(conns) == count
    assert all(c.source_file for c in conns)
    names = {c.name for c in conns}
    assert ("P2pNcclConnector" in names) == (version < "0.24")
    assert ("SharedStorageConnector" in names) == (version in ("0.10.0", "0.11.0"))


@pytest.mark.slow
@pytest.mark.parametrize("version", ["0.10.0", "0.11.0", "0.20.0", "0.23.0"])
def test_p2p_nccl_keys(version):
    conn = next(c for c in extract_connectors(from_version(version)) if c.name == "P2pNcclConnector")
    keys = _keys(conn)
    assert keys["proxy_ip"].default == "" and keys["proxy_port"].default == ""
    assert keys["send_type"].default == "PUT_ASYNC"
    assert keys["nccl_num_channels"].default == "8"
    assert keys["mem_pool_size_gb"].default == 32 and keys["mem_pool_size_gb"].type == "float"
    assert keys["http_port"].has_default is (version >= "0.20")
    assert keys["http_port"].loc.file.endswith("v1/p2p/p2p_nccl_engine.py")


@pytest.mark.slow
def test_nixl_and_others_in_0_33():
    conns = {c.name: c for c in extract_connectors(from_version("0.33.0"))}
    nixl = _keys(conns["NixlConnector"])
    assert nixl["backends"].default == ["UCX"]
    assert nixl["kv_lease_duration"].default == 30
    assert nixl["decoder_kv_blocks_ttl"].default == 480
    assert conns["NixlConnector"].source_file.endswith("v1/nixl/__init__.py")
    assert _keys(conns["ExampleConnector"])["shared_storage_path"].default == "/tmp"
    mooncake = _keys(conns["MooncakeConnector"])
    assert mooncake["num_workers"].default == 10
    assert mooncake["mooncake_protocol"].default == "rdma"
    store = _keys(conns["MooncakeStoreConnector"])
    assert store["lookup_rpc_port"].has_default  # guarded by a membership test
    assert _keys(conns["MultiConnector"])["connectors"].default == []


def test_folding_stays_cheap_and_json(tmp_path):
    chain = "\n".join(f"C{i} = C{i - 1} * C{i - 1}" for i in range(1, 40))
    src = _tree(
        tmp_path,
        {
            f"{KVC}/factory.py": f'KVConnectorFactory.register_connector("A", "{PKG}.a", "A")\n',
            f"{KVC}/a.py": (
                "C0 = 10 ** 60\n" + chain + "\n"
                "def f(extra_config):\n"
                "    extra_config.get('big', C39)\n"
                "    extra_config.get('inf', 1e999)\n"
                "    extra_config.get('ok', 4 * 2 ** 30)\n"
            ),
        },
    )
    keys = _keys(extract_connectors(src)[0])
    assert keys["big"].default == {"$dynamic": "C39"}
    assert set(keys["inf"].default) == {"$dynamic"}  # infinity is not a JSON value
    assert keys["ok"].default == 4 * 2**30
