"""The Python-source toolkit the extractors share (vcfg/catalog/extract/pysource.py)."""

import ast

import pytest

from vcfg.catalog.extract.pysource import (
    Unfoldable,
    binop,
    checker_branch,
    compare,
    dotted,
    import_target,
    last_name,
    module_of,
    runtime_branch,
    type_checking,
)


def _if(src: str) -> ast.If:
    node = ast.parse(src).body[0]
    assert isinstance(node, ast.If)
    return node


def _expr(src: str) -> ast.expr:
    return ast.parse(src, mode="eval").body


def test_type_checking_branches_as_vllm_writes_them():
    # vllm/config/load.py swaps an alias this way: the else branch is what runs
    tc = _if("if TYPE_CHECKING:\n    LoadFormats = Literal['auto']\nelse:\n    LoadFormats = str\n")
    assert type_checking(tc.test) is True
    assert ast.unparse(runtime_branch(tc)[0]) == "LoadFormats = str"
    assert ast.unparse(checker_branch(tc)[0]) == "LoadFormats = Literal['auto']"
    neg = _if("if not typing.TYPE_CHECKING:\n    A = 1\nelse:\n    A = 2\n")
    assert type_checking(neg.test) is False
    assert ast.unparse(runtime_branch(neg)[0]) == "A = 1"
    other = _if("if current_platform.is_rocm():\n    A = 1\n")
    assert type_checking(other.test) is None and runtime_branch(other) is None and checker_branch(other) is None


def test_names():
    assert dotted(_expr("os.path.join")) == "os.path.join"
    assert dotted(_expr("f().x")) == ""
    assert last_name(_expr("pydantic.Field(default=1)")) == "Field"
    assert last_name(_expr("Literal['a', 'b']")) == "Literal"
    assert module_of("vllm/config/cache.py") == "vllm.config.cache"
    assert module_of("vllm/distributed/__init__.py") == "vllm.distributed"


def test_relative_imports_resolve_as_python_does():
    path = "vllm/distributed/kv_transfer/kv_connector/factory.py"
    assert import_target(path, 0, "vllm.config") == "vllm.config"
    assert import_target(path, 1, "base") == "vllm.distributed.kv_transfer.kv_connector.base"
    assert import_target(path, 2, None) == "vllm.distributed.kv_transfer"
    assert import_target("vllm/config/__init__.py", 1, "cache") == "vllm.config.cache"
    assert import_target("vllm/envs.py", 3, "x") is None  # above the top package


def test_binop_folds_and_refuses_what_could_be_huge():
    assert binop(ast.Mult(), 64, 1024) == 65536
    assert binop(ast.LShift(), 1, 20) == 1 << 20
    assert binop(ast.BitOr(), 1, 4) == 5
    assert binop(ast.Add(), "vllm", "-x") == "vllm-x"
    for op, a, b in [
        (ast.Pow(), 2, 10**6),
        (ast.Pow(), 10**200, 10),
        (ast.LShift(), 1, 10**4),
        (ast.Mult(), "x", 10**9),
        (ast.Mult(), 1 << 600, 1 << 600),
        (ast.MatMult(), 1, 2),
    ]:
        with pytest.raises(Unfoldable):
            binop(op, a, b)
    with pytest.raises(ZeroDivisionError):  # Python's own error: the evaluator decides
        binop(ast.Div(), 1, 0)


def test_compare_is_by_value_except_none_and_booleans():
    assert compare(ast.Is(), "cuda", "cu" + "da") is True
    assert compare(ast.Is(), None, None) is True
    assert compare(ast.Is(), 1, True) is False
    assert compare(ast.IsNot(), None, 0) is True
    assert compare(ast.In(), "nixl", ["nixl", "lmcache"]) is True
    assert compare(ast.LtE(), 2, 2) is True
    with pytest.raises(TypeError):
        compare(ast.Lt(), "a", 1)
