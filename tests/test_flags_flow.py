"""vcfg.catalog.extract.flags_flow: the config field create_engine_config passes a
hand-written option to (a snippet shaped like vLLM 0.33.0 engine/arg_utils.py)."""

from __future__ import annotations

from vcfg.catalog.extract.flags_flow import passed_fields

SOURCE = """
class EngineArgs:
    def create_engine_config(self, usage_context=None):
        data_parallel_rpc_port = (
            self.data_parallel_rpc_port
            if (self.data_parallel_rpc_port is not None)
            else ParallelConfig.data_parallel_rpc_port
        )
        parallel_config = ParallelConfig(
            data_parallel_rank=self.data_parallel_rank or 0,
            data_parallel_rpc_port=data_parallel_rpc_port,
            data_parallel_backend=backend,
            nnodes=self.nnodes,
        )
        return VllmConfig(parallel_config=parallel_config, shutdown_timeout=self.shutdown_timeout)


def create_engine_config(self):
    return VllmConfig(other=self.other)
"""


def test_only_the_options_own_value_under_the_fields_name():
    got = passed_fields(SOURCE, ["ParallelConfig", "VllmConfig"])
    # `self.x or 0` and another name are left out; a function outside EngineArgs too
    assert got == {
        "data_parallel_rpc_port": ("ParallelConfig", 11),
        "nnodes": ("ParallelConfig", 13),
        "shutdown_timeout": ("VllmConfig", 15),
    }


def test_no_engine_args_or_bad_source():
    assert passed_fields("def f(): pass\n", ["VllmConfig"]) == {}
    assert passed_fields("class EngineArgs(:\n", ["VllmConfig"]) == {}
