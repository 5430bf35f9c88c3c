"""compile() for code a user wrote (a program, its __main__ block, a spec's code field).

compile() passes on the __future__ features of the module that calls it unless told not to, and
our modules import `annotations` from __future__: a program compiled here without
`dont_inherit` saw every annotation turned into a string (PEP 563), so a TypedDict declared in a
function with a reducer defined beside it lost the reducer (the key became a last-value channel
and the run went wrong). The code keeps its own __future__ imports, and only those.
"""

from __future__ import annotations
import __future__

import ast
from typing import Any


def future_flags(tree: ast.Module) -> int:
    """The compiler flags of the `from __future__ import ...` statements at the top of `tree`."""
    flags = 0
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module == "__future__":
            for alias in node.names:
                feature = getattr(__future__, alias.name, None)
                flags |= getattr(feature, "compiler_flag", 0)
    return flags


def compile_user_code(code: str | ast.Module, filename: str, *, flags: int = 0) -> Any:
    """`code` compiled for exec with its own __future__ features (`flags` adds those of the file
    a part of it comes from), never the caller's."""
    return compile(code, filename, "exec", flags=flags, dont_inherit=True)


__all__ = ["compile_user_code", "future_flags"]
